/**
 * Per-recipient delivery states and the delivery ladder.
 *
 * Progress ladder (weakest first): `pending` < `accepted` < `delivered` <
 * `read`. `held` and `undeliverable` are outcomes, not rungs.
 *
 * The zod schemas of these shapes are in `delivery_schemas.ts`; this module
 * has no zod at runtime.
 *
 * @module
 */
/** Delivery status of a message for one recipient. */
export type DeliveryStatus =
  | "pending"
  | "accepted"
  | "delivered"
  | "read"
  | "held"
  | "undeliverable";

/** The ladder of progress statuses, weakest first. */
export const DELIVERY_LADDER: readonly DeliveryStatus[] = [
  "pending",
  "accepted",
  "delivered",
  "read",
] as const;

/**
 * The strongest status every transport we speak can honestly report: the
 * server took the message (`accepted`).
 */
export const TRANSPORT_DELIVERY_CEILING: DeliveryStatus = "accepted";

/**
 * Cap `status` at `ceiling` on the ladder: a cap, never a setter. Returns the
 * weaker of the two when both are on the ladder; when either is `held` or
 * `undeliverable` returns `status` unchanged.
 *
 * @example
 * ```ts
 * import { capDeliveryStatus } from "@papercusp/chat-protocol/message";
 * capDeliveryStatus("read", "accepted"); // "accepted"
 * capDeliveryStatus("pending", "read"); // "pending"
 * capDeliveryStatus("held", "accepted"); // "held"
 * ```
 */
export function capDeliveryStatus(status: DeliveryStatus, ceiling: DeliveryStatus): DeliveryStatus {
  const s = DELIVERY_LADDER.indexOf(status);
  const c = DELIVERY_LADDER.indexOf(ceiling);
  if (s < 0 || c < 0) return status;
  return s <= c ? status : ceiling;
}

/** One recipient's delivery state. `at` is an ISO-8601 timestamp. */
export interface DeliveryState {
  /** Recipient participant id. */
  participantId: string;
  /** Delivery status. */
  status: DeliveryStatus;
  /** When the status was recorded, ISO-8601. */
  at: string;
  /** Why (e.g. the transport error kind). */
  reason?: string;
}

/**
 * The zod schemas of the delivery shapes ({@link DeliveryStatus},
 * {@link DeliveryState}), under the seed's names (the only names they have;
 * `./message` exports them).
 *
 * @module
 */
import { z } from "zod";
import type { DeliveryState, DeliveryStatus } from "./delivery.ts";

/** {@link DeliveryStatus}. */
export const deliveryStatus: z.ZodType<DeliveryStatus> = z.enum([
  "pending",
  "accepted",
  "delivered",
  "read",
  "held",
  "undeliverable",
]);

/** {@link DeliveryState}: `at` must be an ISO-8601 date-time (UTC `Z` or an offset), like `createdAt`. */
export const deliveryState: z.ZodType<DeliveryState> = z.object({
  participantId: z.string().min(1),
  status: deliveryStatus,
  at: z.iso.datetime({ offset: true }),
  reason: z.string().optional(),
});

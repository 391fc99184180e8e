/**
 * The zod schemas of the delivery shapes ({@link DeliveryStatus},
 * {@link DeliveryState}), under the seed's names and the `*Schema` names of
 * `./schemas`.
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

// The same schemas under the `*Schema` names every schema has in `./schemas`.
/** The same schema as {@link deliveryStatus}, under the `*Schema` name every schema has in `./schemas`. */
export const DeliveryStatusSchema: z.ZodType<DeliveryStatus> = deliveryStatus;
/** The same schema as {@link deliveryState}, under the `*Schema` name every schema has in `./schemas`. */
export const DeliveryStateSchema: z.ZodType<DeliveryState> = deliveryState;

/**
 * The one-shot and `TransformStream` forms of a single-turn v1 adapter
 * (`V1ToUIMessageChunks`, `V1ToAgUi`), written once: reading their options
 * (each field once, never throwing), collecting what the adapter could not
 * carry, and driving the adapter over a complete input
 * ({@link convertWhole}: the whole-stream ordering policy) or a live one
 * ({@link liveTransformer}: the live policy).
 *
 * @module
 */
import { readOptions } from "./fields.ts";
import {
  convertEnvelopes,
  type EnvelopeAdapter,
  type IndexedAdmissionRefusal,
} from "./v1_intake.ts";
import { envelopeTransformer } from "./envelope_transformer.ts";
import type { DroppedEvent } from "../v1/dropped_event.ts";

/** What an adapter is built with; `id` is its own id option (`messageId` or `runId`), as read. */
export interface AdapterSettings {
  readonly id: string | undefined;
  readonly resumeAfterSeq: number | undefined;
  readonly onDropped: ((dropped: DroppedEvent) => void) | undefined;
}

/** Builds the adapter from its settings. */
export type MakeAdapter<T> = (settings: AdapterSettings) => EnvelopeAdapter<T>;

/**
 * Convert a complete input with a fresh adapter: every item it emits, every
 * refusal and report (sorted by index), and every drop (also passed to the
 * caller's `onDropped`, as it happens). Never throws.
 */
export function convertWhole<T>(
  envelopes: unknown,
  options: unknown,
  idKey: "messageId" | "runId",
  make: MakeAdapter<T>,
): { out: T[]; refused: IndexedAdmissionRefusal[]; dropped: DroppedEvent[] } {
  const dropped: DroppedEvent[] = [];
  const o = readOptions(options, [idKey, "resumeAfterSeq", "onDropped"] as const);
  const user = o !== null && typeof o.onDropped === "function"
    ? o.onDropped as (d: DroppedEvent) => void
    : undefined;
  const adapter = make({
    id: o?.[idKey] as string | undefined,
    resumeAfterSeq: o?.resumeAfterSeq as number | undefined,
    onDropped: (d) => {
      dropped.push(d);
      user?.(d);
    },
  });
  const { out, refused } = convertEnvelopes(envelopes, adapter);
  return { out, refused, dropped };
}

/**
 * The transformer of an adapter's `TransformStream` form (the live policy,
 * see `_envelope_transformer.ts`); `onRefused` is read from `options`.
 */
export function liveTransformer<T>(
  options: unknown,
  idKey: "messageId" | "runId",
  make: MakeAdapter<T>,
): Transformer<unknown, T> {
  const o = readOptions(options, [idKey, "resumeAfterSeq", "onDropped", "onRefused"] as const);
  return envelopeTransformer(
    make({
      id: o?.[idKey] as string | undefined,
      resumeAfterSeq: o?.resumeAfterSeq as number | undefined,
      onDropped: o?.onDropped as ((d: DroppedEvent) => void) | undefined,
    }),
    typeof o?.onRefused === "function"
      ? o.onRefused as (r: IndexedAdmissionRefusal) => void
      : undefined,
  );
}

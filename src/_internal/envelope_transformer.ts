/**
 * The `Transformer` behind the v1 adapters' `TransformStream` forms: each
 * written value goes through the adapter with the live ordering policy
 * (`../v1/_ordering.ts`'s `TurnOrder`, as `ChatStateFolder.push` answers):
 * nothing is held back. What the adapter emits is enqueued at once; a `seq`
 * ahead of the next expected one is reported as `gap` at once and the
 * envelope is applied knowingly (`resync`), so the stream goes on; a late
 * or re-sent envelope (`reordered`, `duplicate`) and every other refusal is
 * reported and skipped.
 *
 * @module
 */
import type { EnvelopeAdapter, IndexedAdmissionRefusal } from "./v1_intake.ts";

/** A transformer driving `adapter`; `onRefused` (may be undefined) hears every refusal. */
export function envelopeTransformer<T>(
  adapter: EnvelopeAdapter<T>,
  onRefused: ((refusal: IndexedAdmissionRefusal) => void) | undefined,
): Transformer<unknown, T> {
  let index = 0;
  const report = (r: IndexedAdmissionRefusal) => {
    if (onRefused === undefined) return;
    try {
      onRefused(r);
    } catch {
      // the host's callback failing must not break the stream
    }
  };
  return {
    transform(value, controller) {
      const at = index++;
      let r = adapter.push(value);
      if (!r.ok && r.error.code === "gap") {
        report({ index: at, error: r.error });
        r = adapter.resync(value);
      }
      if (!r.ok) report({ index: at, error: r.error });
      else for (const x of r.value) controller.enqueue(x);
    },
    flush(controller) {
      for (const x of adapter.end()) controller.enqueue(x);
    },
  };
}

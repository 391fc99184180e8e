/**
 * The `Transformer` behind the v1 adapters' `TransformStream` forms: each
 * written value goes through an adapter with the v1 whole-stream ordering
 * policy ({@link EnvelopeStream}); what it emits is enqueued, refusals and
 * ordering reports go to a callback as they are decided.
 *
 * @module
 */
import {
  type EnvelopeAdapter,
  EnvelopeStream,
  type IndexedAdmissionRefusal,
} from "./_v1_intake.ts";

/** A transformer driving `adapter`; `onRefused` (may be undefined) hears every refusal. */
export function envelopeTransformer<T>(
  adapter: EnvelopeAdapter<T>,
  onRefused: ((refusal: IndexedAdmissionRefusal) => void) | undefined,
): Transformer<unknown, T> {
  let stream: EnvelopeStream<T> | undefined;
  let index = 0;
  const report = (list: IndexedAdmissionRefusal[]) => {
    if (onRefused === undefined) return;
    for (const r of list) {
      try {
        onRefused(r);
      } catch {
        // the host's callback failing must not break the stream
      }
    }
  };
  return {
    start(controller) {
      stream = new EnvelopeStream(adapter, (items) => {
        for (const x of items) controller.enqueue(x);
      });
    },
    transform(value) {
      stream!.offer(value, index++);
      report(stream!.takeVerdicts());
    },
    flush() {
      stream!.end(index);
      report(stream!.takeVerdicts());
    },
  };
}

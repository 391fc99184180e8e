/** Test helper: read an SSE fixture into frames with the package's own SSE parser. */
import { SseParser } from "../../sse.ts";
import type { LegacyFrame } from "../../legacy.ts";

/** Parse SSE text into `{id?, event?, data}` frames. */
export function sseFrames(text: string): LegacyFrame[] {
  const out: LegacyFrame[] = [];
  const parser = new SseParser({
    onEvent: (m) => {
      const f: LegacyFrame = { data: m.data };
      if (m.id !== undefined) f.id = m.id;
      if (m.event !== undefined) f.event = m.event;
      out.push(f);
    },
  });
  parser.feed(text);
  parser.end();
  return out;
}

/**
 * `readLastEventId`'s length bound is exact: a cursor of `maxLength` UTF-16
 * code units is read, one more is refused `cursor-too-long` (431), for the
 * header and the query parameter, with the default bound and a given one.
 * Before, no test sat on the boundary: accepting one past `maxLength` went
 * unnoticed.
 */
import assert from "node:assert/strict";
import { DEFAULT_MAX_LAST_EVENT_ID_LENGTH, readLastEventId } from "../../http.ts";

const byHeader = (id: string) =>
  new Request("http://localhost/events", { headers: { "last-event-id": id } });
const byQuery = (id: string) =>
  new Request(`http://localhost/events?lastEventId=${encodeURIComponent(id)}`);

for (const [how, request] of [["header", byHeader], ["query", byQuery]] as const) {
  for (const max of [undefined, 0, 1, 7, 300]) {
    const bound = max ?? DEFAULT_MAX_LAST_EVENT_ID_LENGTH;
    Deno.test(`readLastEventId (${how}, maxLength ${max ?? "default"}): ${bound} read, ${bound + 1} refused`, () => {
      const options = max === undefined ? undefined : { maxLength: max };
      // "é" is one UTF-16 code unit, "😀" two (query only: a header is bytes): code units count.
      for (const unit of ["a", "é"]) {
        const at = unit.repeat(bound);
        if (bound > 0) {
          assert.deepEqual(readLastEventId(request(at), options), { ok: true, value: at });
        }
        const over = readLastEventId(request(unit.repeat(bound + 1)), options);
        assert.equal(over.ok, false, `${bound + 1} code units must be refused`);
        if (!over.ok) assert.equal(over.error.code, "cursor-too-long");
      }
      if (how === "query" && bound >= 2) {
        const pairs = "😀".repeat(bound / 2 | 0) + (bound % 2 === 1 ? "a" : "");
        assert.equal(pairs.length, bound);
        assert.equal(readLastEventId(request(pairs), options).ok, true);
        assert.equal(readLastEventId(request(`${pairs}a`), options).ok, false);
      }
    });
  }
}

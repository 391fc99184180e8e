/**
 * {@link readLastEventId}: the client's resume cursor from a request: the
 * `Last-Event-ID` header (what a browser's `EventSource` sends when it
 * reconnects), else a query parameter (for a page that reconnects by
 * itself after a reload and remembered the last id).
 *
 * @module
 */
import { err, ok, type Result } from "../result.ts";
import { readOptions } from "../_internal/fields.ts";
import { type StreamRefusal, streamRefusal } from "./stream_refusal.ts";

/** Default bound of a `Last-Event-ID`, in UTF-16 code units. */
export const DEFAULT_MAX_LAST_EVENT_ID_LENGTH = 1024;

/** Options of {@link readLastEventId}. */
export interface LastEventIdOptions {
  /**
   * Longest accepted cursor in UTF-16 code units (default
   * {@link DEFAULT_MAX_LAST_EVENT_ID_LENGTH}); a longer one is refused
   * `cursor-too-long` (431) without being looked at.
   */
  readonly maxLength?: number;
  /**
   * Query parameter read when there is no `Last-Event-ID` header (default
   * `lastEventId`; `null`: headers only).
   */
  readonly queryParam?: string | null;
}

/**
 * The cursor a request asks to resume after: the `Last-Event-ID` header,
 * else the query parameter (`?lastEventId=…`), else `null` (no cursor, or
 * an empty one: start from the beginning). Refuses `cursor-too-long`
 * beyond `maxLength`. Never throws: a request whose headers or URL cannot
 * be read has no cursor (`null`).
 *
 * @example
 * ```ts
 * import { readLastEventId } from "@papercusp/chat-protocol/http";
 * const req = new Request("http://localhost/turns/t1/events", { headers: { "last-event-id": "t1:4" } });
 * readLastEventId(req); // { ok: true, value: "t1:4" }
 * ```
 */
export function readLastEventId(
  request: Request,
  options?: LastEventIdOptions,
): Result<string | null, StreamRefusal> {
  const o = readOptions(options, ["maxLength", "queryParam"]);
  const max = typeof o?.maxLength === "number" && o.maxLength >= 0
    ? o.maxLength
    : DEFAULT_MAX_LAST_EVENT_ID_LENGTH;
  const param = o?.queryParam === null
    ? null
    : typeof o?.queryParam === "string"
    ? o.queryParam
    : "lastEventId";
  let id: string | null = null;
  try {
    id = request.headers.get("last-event-id");
    if ((id === null || id === "") && param !== null) {
      id = new URL(request.url).searchParams.get(param);
    }
  } catch {
    return ok(null);
  }
  if (id === null || id === "") return ok(null);
  if (id.length > max) {
    return err(
      streamRefusal("cursor-too-long", `the Last-Event-ID is longer than ${max} characters`),
    );
  }
  return ok(id);
}

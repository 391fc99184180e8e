/**
 * Every public v0 wire function against hostile values in every argument
 * position, 10^4 runs each (all document "never throws").
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import {
  isChatEventType,
  isReplayableEvent,
  isStateChannelEvent,
  parseChatEvent,
} from "../../v0.ts";
import { arg, attack } from "../_helpers/attack.ts";

const name = fc.constantFrom("delta", "state", "card", "tool_call", "error", "token");
const payload = fc.oneof(
  fc.record({ text: fc.constant("x") }),
  fc.record({ name: fc.constant("t"), callId: fc.constant("c"), input: fc.jsonValue() }),
  fc.record({ version: fc.nat(), snapshot: fc.jsonValue() }),
  fc.record({ card: fc.record({ correlationId: fc.constant("k"), prompt: fc.constant("?") }) }),
);
const boolean = (r: unknown) => assert.equal(typeof r, "boolean");

Deno.test("hostile: parseChatEvent", () => {
  attack([arg(name), arg(payload)], (n, d) => parseChatEvent(n as string, d), {
    check: (r) => assert.ok(r === null || typeof (r as { type: unknown }).type === "string"),
  });
});

Deno.test("hostile: isChatEventType / isStateChannelEvent / isReplayableEvent", () => {
  for (const fn of [isChatEventType, isStateChannelEvent, isReplayableEvent]) {
    attack([arg(name)], (n) => fn(n as string), { check: boolean });
  }
});

/**
 * An own `"__proto__"` key of a record (JSON.parse makes one) is refused,
 * never stripped, by every record the library's schemas read: the library's
 * verdict, the zod schema's verdict and the JSON Schema's verdict agree, and
 * the same document without the key is accepted (so the key alone decides).
 * Before, zod's `z.record` skipped the key silently: `ChatStateV1Schema`
 * accepted a state `resumeChatState` refuses, `parseInboundChatMessage`
 * answered ok with the key gone.
 */
import assert from "node:assert/strict";
import { loadValidators } from "./_ajv.ts";
import { ChatStateV1Schema } from "../../src/v1/schemas.ts";
import { resumeChatState } from "../../src/v1/fold.ts";
import { CardResponseSchema, OpenCardSnapshotSchema } from "../../src/cards/schemas.ts";
import { uiMessage as UIMessageSchema } from "../../src/message/parts.ts";
import { parseChatMessage, parseInboundChatMessage } from "../../src/message/envelope.ts";
import { parseBrokerSessions } from "../../src/agents/parse.ts";
import type { ChatStateV1 } from "../../src/v1/types.ts";

const validators = loadValidators();
const entry = `{"seq":1,"data":{"k":1}}`;
const message = (metadata: string) =>
  `{"id":"m","threadId":"th","authorId":"u","role":"user","createdAt":"2026-12-02T07:00:00Z","parts":[{"type":"text","text":"hi"}],"metadata":${metadata}}`;

interface Case {
  readonly name: string;
  readonly file: string;
  /** The document with `KEY` where the record key goes. */
  readonly doc: string;
  readonly library: (doc: unknown) => boolean;
}

const CASES: Case[] = [
  {
    name: "ChatStateV1 extensionState",
    file: "v1/chat-state.schema.json",
    doc:
      `{"schemaVersion":1,"conversationId":"c","turnId":"t","status":"running","lastSeq":1,"lastEventId":"e","text":"","reasoning":"","tools":[],"openCards":[],"closedCards":[],"extensionState":{"a.b":${entry},"KEY":${entry}}}`,
    library: (d) => {
      const resumed = resumeChatState(d as ChatStateV1).ok;
      assert.equal(ChatStateV1Schema.safeParse(d).success, resumed, "zod schema vs resume");
      return resumed;
    },
  },
  {
    name: "InboundChatMessage metadata",
    file: "message/inbound-chat-message.schema.json",
    doc: message(`{"a":1,"KEY":{"x":1}}`),
    library: (d) => parseInboundChatMessage(d).ok,
  },
  {
    name: "ChatMessage metadata",
    file: "message/chat-message.schema.json",
    doc: message(`{"a":1,"KEY":{"x":1}}`),
    library: (d) => parseChatMessage(d).ok,
  },
  {
    name: "UIMessage providerMetadata (outer record)",
    file: "message/ui-message.schema.json",
    doc:
      `{"id":"m","role":"user","parts":[{"type":"text","text":"hi","providerMetadata":{"p":{"a":1},"KEY":{"a":1}}}]}`,
    library: (d) => UIMessageSchema.safeParse(d).success,
  },
  {
    name: "UIMessage providerMetadata (inner record)",
    file: "message/ui-message.schema.json",
    doc:
      `{"id":"m","role":"user","parts":[{"type":"text","text":"hi","providerMetadata":{"p":{"a":1,"KEY":2}}}]}`,
    library: (d) => UIMessageSchema.safeParse(d).success,
  },
  {
    name: "CardResponse value",
    file: "cards/card-response.schema.json",
    doc: `{"action":"submit","correlationId":"c1","value":{"a":1,"KEY":2}}`,
    library: (d) => CardResponseSchema.safeParse(d).success,
  },
  {
    name: "OpenCardSnapshot dataSchemaJson",
    file: "cards/open-card-snapshot.schema.json",
    doc:
      `{"kind":"form","prompt":"p","correlationId":"c1","createdAt":1,"dataSchemaJson":{"type":"object","KEY":{}}}`,
    library: (d) => OpenCardSnapshotSchema.safeParse(d).success,
  },
];

for (const c of CASES) {
  Deno.test(`an own __proto__ key is refused, never stripped: ${c.name}`, () => {
    const schema = validators.get(c.file)!;
    const without = JSON.parse(c.doc.replace("KEY", "x.other"));
    assert.equal(c.library(without), true, "the document without the key is valid");
    assert.equal(schema(without), true, "the JSON Schema accepts it too");
    const withKey = JSON.parse(c.doc.replace("KEY", "__proto__"));
    assert.equal(Object.getPrototypeOf(withKey), Object.prototype, "JSON.parse: an own data key");
    assert.equal(c.library(withKey), false, "the library refuses the own __proto__ key");
    assert.equal(schema(withKey), false, "the JSON Schema refuses it too");
  });
}

Deno.test("an own __proto__ key is refused: the refusal names the key's path", () => {
  const r = parseInboundChatMessage(JSON.parse(message(`{"__proto__":{"x":1}}`)));
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.error.code, "invalid-message");
  assert.deepEqual(r.error.issues.map((i) => i.path), [["metadata", "__proto__"]]);
});

Deno.test("an own __proto__ key is refused: a broker session's declared map (row malformed)", () => {
  const body = (declared: string) =>
    JSON.parse(
      `{"sessions":[{"name":"n","workingOn":"w","cwd":"/","status":"working","idleMs":0,"registeredAt":1,"declared":${declared}}],"brokerUptimeMs":5}`,
    );
  const fine = parseBrokerSessions(body(`{"role":"x"}`));
  const refused = parseBrokerSessions(body(`{"role":"x","__proto__":"y"}`));
  assert.ok(fine.ok && fine.value.sessions.length === 1 && fine.value.malformed === 0);
  assert.ok(refused.ok && refused.value.sessions.length === 0 && refused.value.malformed === 1);
});

Deno.test("every z.record in src/ is read through refusingProtoKey", () => {
  const offenders: string[] = [];
  const walk = (dir: URL, rel: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory) walk(new URL(`${e.name}/`, dir), `${rel}${e.name}/`);
      else if (e.name.endsWith(".ts") && `${rel}${e.name}` !== "_internal/record_schema.ts") {
        const text = Deno.readTextFileSync(new URL(e.name, dir));
        for (const m of text.matchAll(/z\.record\(/g)) {
          const before = text.slice(Math.max(0, m.index - 40), m.index);
          if (!/refusingProtoKey\(\s*$/.test(before)) offenders.push(`${rel}${e.name}`);
        }
      }
    }
  };
  walk(new URL("../../src/", import.meta.url), "");
  walk(new URL("../../postgres/src/", import.meta.url), "postgres/");
  assert.deepEqual(
    offenders,
    [],
    "use ownRecord / refusingProtoKey (src/_internal/record_schema.ts)",
  );
});

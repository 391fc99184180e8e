/**
 * The JSON Schema agrees with the library: on generated valid and broken
 * documents of every type, ajv's verdict with the checked-in schema (and
 * with the bundle's definition) equals the library's own verdict
 * (`parseChatEnvelope`, `resumeChatState`, `parseChatMessage`,
 * `parseInboundChatMessage`, and the zod schemas where the library's
 * contract is the schema). Prints the counts.
 */
import assert from "node:assert/strict";
import fc from "../_helpers/seed.ts";
import { loadValidators } from "./_ajv.ts";
import * as docs from "./_documents.ts";
import { ChatCapabilitiesSchema, ChatStateV1Schema } from "../../src/v1/schemas.ts";
import { parseChatEnvelope } from "../../src/v1/parse.ts";
import { resumeChatState } from "../../src/v1/fold.ts";
import { ChatEventSchema } from "../../src/v0/schemas.ts";
import {
  CardResponseSchema,
  CardSpecSchema,
  OpenCardSnapshotSchema,
} from "../../src/cards/schemas.ts";
import { AskBlockSchema, ReportBlockSchema } from "../../src/blocks/schemas.ts";
import { uiMessage } from "../../src/message/parts.ts";
import {
  chatThread,
  parseChatMessage,
  parseInboundChatMessage,
} from "../../src/message/envelope.ts";
import type { ChatStateV1 } from "../../src/v1/types.ts";

const validators = loadValidators();

/**
 * The seed of every case: fixed, so a run is reproducible, and printed with
 * each case; `deno test … agreement_test.ts -- --seed=N` runs with another
 * (a case uses `N + its index`).
 */
const SEED_ARG = Deno.args.find((a) => a.startsWith("--seed="));
const BASE_SEED = SEED_ARG === undefined ? 20261202 : Number(SEED_ARG.slice("--seed=".length));
if (!Number.isSafeInteger(BASE_SEED)) throw new Error(`bad ${SEED_ARG}: an integer`);

/** The rules of a saved state that JSON Schema cannot express hold (or the shape is off anyway). */
function inexpressibleHold(doc: unknown): boolean {
  if (typeof doc !== "object" || doc === null) return true;
  const s = doc as Record<string, unknown>;
  const lastSeq = s.lastSeq;
  if (typeof lastSeq !== "number") return true;
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  const seen = new Set<unknown>();
  for (const t of list(s.tools)) {
    if (typeof t !== "object" || t === null) continue;
    const { callId, startedSeq, finishedSeq } = t as Record<string, unknown>;
    if (seen.has(callId)) return false;
    seen.add(callId);
    if (typeof startedSeq === "number" && startedSeq > lastSeq) return false;
    if (typeof finishedSeq === "number" && finishedSeq > lastSeq) return false;
    if (!blockIdsUnique((t as Record<string, unknown>).blocks)) return false;
  }
  const ext = s.extensionState;
  if (typeof ext === "object" && ext !== null) {
    for (const e of Object.values(ext)) {
      const seq = typeof e === "object" && e !== null ? (e as Record<string, unknown>).seq : 0;
      if (typeof seq === "number" && seq > lastSeq) return false;
    }
  }
  let previous = -Infinity;
  for (const e of list(s.extensionEvents)) {
    const seq = typeof e === "object" && e !== null ? (e as Record<string, unknown>).seq : 0;
    if (typeof seq === "number" && (seq > lastSeq || seq <= previous)) return false;
    if (typeof seq === "number") previous = seq;
  }
  const cards = new Set<unknown>();
  for (const c of [...list(s.openCards), ...list(s.closedCards)]) {
    if (typeof c !== "object" || c === null) continue;
    const id = (c as Record<string, unknown>).correlationId;
    if (cards.has(id)) return false;
    cards.add(id);
  }
  return true;
}

/** A tool result's grounded block ids are unique (JSON Schema cannot say "unique by id"). */
function blockIdsUnique(blocks: unknown): boolean {
  if (!Array.isArray(blocks)) return true;
  const ids = new Set<unknown>();
  for (const b of blocks) {
    const id = typeof b === "object" && b !== null ? (b as Record<string, unknown>).id : undefined;
    if (id !== undefined && ids.has(id)) return false;
    ids.add(id);
  }
  return true;
}

/** The event's rules JSON Schema cannot express hold. */
function eventInexpressibleHold(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return true;
  return blockIdsUnique((e as Record<string, unknown>).blocks);
}

const envelopeOf = (event: unknown) => ({
  schemaVersion: 1,
  conversationId: "c",
  turnId: "t",
  eventId: "e",
  seq: 1,
  event,
});

interface Case {
  readonly name: string;
  readonly file: string;
  readonly root: string;
  readonly runs: number;
  readonly docs: fc.Arbitrary<unknown>;
  /** The library's verdict; `undefined` when an inexpressible rule decides (schema not compared). */
  readonly library: (doc: unknown) => boolean;
  readonly inexpressible?: (doc: unknown) => boolean;
}

const CASES: Case[] = [
  {
    name: "v1 envelope",
    file: "v1/chat-event-envelope.schema.json",
    root: "ChatEventEnvelope",
    runs: 20_000,
    docs: docs.mutated(docs.envelopeDoc),
    library: (d) => parseChatEnvelope(d).ok,
    inexpressible: (d) =>
      typeof d !== "object" || d === null ||
      eventInexpressibleHold((d as Record<string, unknown>).event),
  },
  {
    name: "v1 event",
    file: "v1/chat-event.schema.json",
    root: "ChatEventV1",
    runs: 6_000,
    docs: docs.mutated(docs.v1EventDoc),
    library: (d) => parseChatEnvelope(envelopeOf(d)).ok,
    inexpressible: eventInexpressibleHold,
  },
  {
    name: "ChatStateV1",
    file: "v1/chat-state.schema.json",
    root: "ChatStateV1",
    runs: 10_000,
    docs: docs.mutated(docs.stateDoc),
    library: (d) => {
      const from = resumeChatState(d as ChatStateV1).ok;
      assert.equal(ChatStateV1Schema.safeParse(d).success, from, "zod schema vs from()");
      return from;
    },
    inexpressible: inexpressibleHold,
  },
  {
    name: "ChatCapabilities",
    file: "v1/chat-capabilities.schema.json",
    root: "ChatCapabilities",
    runs: 2_000,
    docs: docs.mutated(docs.capabilitiesDoc),
    library: (d) => ChatCapabilitiesSchema.safeParse(d).success,
  },
  {
    name: "v0 event",
    file: "v0/chat-event.schema.json",
    root: "ChatEvent",
    runs: 4_000,
    docs: docs.mutated(docs.v0EventDoc),
    library: (d) => ChatEventSchema.safeParse(d).success,
  },
  {
    name: "OpenCardSnapshot",
    file: "cards/open-card-snapshot.schema.json",
    root: "OpenCardSnapshot",
    runs: 4_000,
    docs: docs.mutated(docs.openCard),
    library: (d) => OpenCardSnapshotSchema.safeParse(d).success,
  },
  {
    name: "CardSpec",
    file: "cards/card-spec.schema.json",
    root: "CardSpec",
    runs: 2_000,
    docs: docs.mutated(docs.cardSpec),
    library: (d) => CardSpecSchema.safeParse(d).success,
  },
  {
    name: "CardResponse",
    file: "cards/card-response.schema.json",
    root: "CardResponse",
    runs: 2_000,
    docs: docs.mutated(docs.cardResponse),
    library: (d) => CardResponseSchema.safeParse(d).success,
  },
  {
    name: "ReportBlock",
    file: "blocks/report-block.schema.json",
    root: "ReportBlock",
    runs: 3_000,
    docs: docs.mutated(docs.reportBlock),
    library: (d) => ReportBlockSchema.safeParse(d).success,
  },
  {
    name: "AskBlock",
    file: "blocks/ask-block.schema.json",
    root: "AskBlock",
    runs: 3_000,
    docs: docs.mutated(docs.askBlock),
    library: (d) => AskBlockSchema.safeParse(d).success,
  },
  {
    name: "UIMessage",
    file: "message/ui-message.schema.json",
    root: "UIMessage",
    runs: 4_000,
    docs: docs.mutated(docs.uiMessageDoc),
    library: (d) => uiMessage.safeParse(d).success,
  },
  {
    name: "ChatMessage",
    file: "message/chat-message.schema.json",
    root: "ChatMessage",
    runs: 4_000,
    docs: docs.mutated(docs.chatMessageDoc),
    library: (d) => parseChatMessage(d).ok,
  },
  {
    name: "InboundChatMessage",
    file: "message/inbound-chat-message.schema.json",
    root: "InboundChatMessage",
    runs: 4_000,
    docs: docs.mutated(docs.inboundMessageDoc),
    library: (d) => parseInboundChatMessage(d).ok,
  },
  {
    name: "ChatThread",
    file: "message/chat-thread.schema.json",
    root: "ChatThread",
    runs: 2_000,
    docs: docs.mutated(docs.threadDoc),
    library: (d) => chatThread.safeParse(d).success,
  },
];

const totals = { runs: 0, valid: 0, invalid: 0, inexpressible: 0 };

for (const [index, c] of CASES.entries()) {
  Deno.test(`JSON Schema agrees with the library: ${c.name} (${c.runs} generated documents)`, () => {
    const seed = BASE_SEED + index;
    console.log(`${c.name}: seed ${seed} (replay: -- --seed=${BASE_SEED})`);
    const schema = validators.get(c.file)!;
    const bundled = validators.get(`bundle#${c.root}`)!;
    let valid = 0, invalid = 0, inexpressible = 0;
    fc.assert(
      fc.property(c.docs, (doc) => {
        const lib = c.library(doc);
        const verdict = schema(doc);
        assert.equal(bundled(doc), verdict, "bundle definition vs document file");
        if (c.inexpressible !== undefined && !c.inexpressible(doc)) {
          // A rule JSON Schema cannot state decides: the library must refuse.
          assert.equal(lib, false, `library accepts a document breaking an inexpressible rule`);
          inexpressible++;
          return;
        }
        assert.equal(verdict, lib, `schema says ${verdict}, library says ${lib}`);
        if (lib) valid++;
        else invalid++;
      }),
      { numRuns: c.runs, seed },
    );
    console.log(
      `${c.name}: ${c.runs} documents, ${valid} valid, ${invalid} invalid, agree on all` +
        (inexpressible > 0 ? ` (${inexpressible} refused by an inexpressible rule)` : ""),
    );
    // A generator that never (or always) produces valid documents proves little.
    assert.ok(valid >= c.runs / 10, `only ${valid} valid documents`);
    assert.ok(invalid >= c.runs / 10, `only ${invalid} invalid documents`);
    totals.runs += c.runs;
    totals.valid += valid;
    totals.invalid += invalid;
    totals.inexpressible += inexpressible;
  });
}

Deno.test("JSON Schema agreement: totals", () => {
  console.log(
    `agreement: ${totals.runs} documents over ${CASES.length} types, ${totals.valid} valid, ${totals.invalid} invalid, ${totals.inexpressible} refused by inexpressible rules`,
  );
  assert.ok(totals.runs >= 10_000);
});

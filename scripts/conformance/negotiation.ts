/**
 * Capability requirements (`requireChatCapabilities`) and version
 * negotiation (`negotiateChatVersion`, `negotiateChatVersions`).
 *
 * @module
 */
import type { CaseDef, CaseGroup } from "./_def.ts";
import type { Json, JsonObject } from "../../conformance/ts/kinds.ts";

const NONE = {
  connectionReplay: false,
  persistedHistory: false,
  persistedDecisions: false,
  completedToolCheckpoints: false,
  interruptedTurnRecovery: false,
};
const with_ = (over: JsonObject): JsonObject => ({ ...NONE, ...over });

function cap(
  id: string,
  description: string,
  kill: string,
  declared: Json,
  required: Json,
  want: JsonObject,
): CaseDef {
  return {
    id: `capabilities.${id}`,
    kind: "capabilities",
    description,
    kill,
    input: { declared, required },
    want,
  };
}
const missing = (m: string[], unknown: string[] = []) => ({ ok: false, missing: m, unknown });

const capabilities: CaseDef[] = [
  cap(
    "all-declared",
    "every required capability declared true",
    "v1.capabilities.required-only",
    with_({ connectionReplay: true, persistedHistory: true }),
    ["connectionReplay", "persistedHistory"],
    { ok: true },
  ),
  cap(
    "missing-one",
    "a required capability declared false is missing",
    "v1.capabilities.required-only",
    with_({ connectionReplay: true }),
    ["connectionReplay", "persistedDecisions"],
    missing(["persistedDecisions"]),
  ),
  cap(
    "string-true",
    '"true" is not true',
    "v1.capabilities.exact-true",
    with_({ connectionReplay: "true" }),
    ["connectionReplay"],
    missing(["connectionReplay"]),
  ),
  cap(
    "one-not-true",
    "1 is not true",
    "v1.capabilities.exact-true",
    with_({ persistedHistory: 1 }),
    ["persistedHistory"],
    missing(["persistedHistory"]),
  ),
  cap(
    "missing-order",
    "missing capabilities are listed in declaration order",
    "v1.capabilities.required-only",
    NONE,
    ["interruptedTurnRecovery", "connectionReplay"],
    missing(["connectionReplay", "interruptedTurnRecovery"]),
  ),
  cap(
    "history-not-recovery",
    "persisted history never implies restart recovery",
    "v1.capabilities.independent",
    with_({ persistedHistory: true }),
    ["interruptedTurnRecovery"],
    missing(["interruptedTurnRecovery"]),
  ),
  cap(
    "replay-not-history",
    "connection replay does not imply persisted history",
    "v1.capabilities.independent",
    with_({ connectionReplay: true }),
    ["persistedHistory"],
    missing(["persistedHistory"]),
  ),
  cap(
    "unknown-name",
    "a typo is refused, never ignored",
    "v1.capabilities.unknown-refused",
    with_({ connectionReplay: true }),
    ["conectionReplay"],
    missing([], ["conectionReplay"]),
  ),
  cap(
    "unknown-non-string",
    "a non-string name is listed by its type",
    "v1.capabilities.unknown-refused",
    NONE,
    [3, null],
    missing([], ["(number)", "(null)"]),
  ),
  cap(
    "unknown-and-missing",
    "unknown and missing are both reported",
    "v1.capabilities.unknown-refused",
    NONE,
    ["persistedDecisions", "replay"],
    missing(["persistedDecisions"], ["replay"]),
  ),
  cap(
    "required-not-list",
    "a requirement that is neither a list nor an object is refused",
    "v1.capabilities.unknown-refused",
    NONE,
    "connectionReplay",
    missing([], ["connectionReplay"]),
  ),
  cap(
    "record-true",
    "a record requires the names whose value is true",
    "v1.capabilities.required-only",
    with_({ persistedDecisions: true }),
    { persistedDecisions: true, connectionReplay: false },
    { ok: true },
  ),
  cap(
    "record-truthy",
    "a record value that is truthy but not true is refused (listed in invalid), never read as not required",
    "v1.capabilities.required-record",
    NONE,
    { connectionReplay: 1, persistedHistory: "yes" },
    { ok: false, missing: [], unknown: [], invalid: ["connectionReplay", "persistedHistory"] },
  ),
  cap(
    "record-null",
    "a record value null is refused (listed in invalid); false requires nothing",
    "v1.capabilities.required-record",
    NONE,
    { persistedHistory: null, connectionReplay: false },
    { ok: false, missing: [], unknown: [], invalid: ["persistedHistory"] },
  ),
  cap(
    "record-missing",
    "a record's true requirement can be missing",
    "v1.capabilities.required-only",
    NONE,
    { completedToolCheckpoints: true },
    missing(["completedToolCheckpoints"]),
  ),
  cap(
    "declared-not-object",
    "a declaration that is not an object declares nothing",
    "v1.capabilities.required-only",
    ["connectionReplay"],
    ["connectionReplay"],
    missing(["connectionReplay"]),
  ),
  cap(
    "nothing-required",
    "requiring nothing always passes",
    "v1.capabilities.required-only",
    NONE,
    [],
    { ok: true },
  ),
];

function version(
  id: string,
  description: string,
  kill: string,
  input: JsonObject,
  want: JsonObject,
): CaseDef {
  return { id: `version.${id}`, kind: "version", description, kill, input, want };
}
const refusedV = { ok: false, code: "unsupported-version" };

const versions: CaseDef[] = [
  version("string-one", 'the string "1" is refused', "v1.version.exact", { offer: "1" }, refusedV),
  version("string-zero", 'the string "0" is refused', "v1.version.exact", { offer: "0" }, refusedV),
  version("true", "true is refused", "v1.version.exact", { offer: true }, refusedV),
  version("null", "null is refused", "v1.version.exact", { offer: null }, refusedV),
  version(
    "empty-string",
    "the empty string is refused",
    "v1.version.exact",
    { offer: "" },
    refusedV,
  ),
  version("array", "[1] is refused", "v1.version.exact", { offer: [1] }, refusedV),
  version("missing", "no offer at all is refused", "v1.version.exact", {}, refusedV),
  version("two", "a future version 2 is refused", "v1.version.known", { offer: 2 }, refusedV),
  version("fraction", "1.5 is refused", "v1.version.known", { offer: 1.5 }, refusedV),
  version("negative", "-1 is refused", "v1.version.known", { offer: -1 }, refusedV),
  version(
    "server-only-one",
    "a client offering only 0 to a server speaking only 1 gets no version",
    "v1.version.server-list",
    { offers: [0], server: [1] },
    refusedV,
  ),
  version("highest", "both speak 0 and 1: 1", "v1.version.highest-common", { offers: [0, 1] }, {
    ok: true,
    version: 1,
  }),
  version("highest-order", "the order of the offers does not matter", "v1.version.highest-common", {
    offers: [1, 0, 7],
  }, { ok: true, version: 1 }),
  version("server-only-zero", "the server speaks only 0", "v1.version.server-list", {
    offers: [1, 0],
    server: [0],
  }, { ok: true, version: 0 }),
  version(
    "offers-ignore-strings",
    "offers that are not exactly 0 or 1 are ignored",
    "v1.version.exact",
    { offers: ["1", 0] },
    { ok: true, version: 0 },
  ),
  version(
    "no-common",
    "no version in common is refused",
    "v1.version.known",
    { offers: [2, 3] },
    refusedV,
  ),
  version("offers-not-list", "offers that are not a list are refused", "v1.version.exact", {
    offers: "1",
  }, refusedV),
];

/** Capability and version cases. */
export const NEGOTIATION_GROUPS: CaseGroup[] = [
  { file: "capabilities.json", cases: capabilities },
  { file: "version.json", cases: versions },
];

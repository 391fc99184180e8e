/**
 * The rules registry, written once here and emitted as
 * `conformance/rules.json` by the corpus generator: id, one-line
 * statement, docs anchor.
 *
 * @module
 */

const V1 = "docs/wire.md#v1-envelopes-lifecycle-state-the-root-entry-point";
const V0 = "docs/wire.md#v0-named-sse-events-v0-existing-behaviour-unchanged";
const SSE = "docs/wire.md#sse-codec-sse";
const LEGACY = "docs/wire.md#legacy-frames-legacy";
const REPLAY = "docs/recovery.md#turn-recovery-papercuspchat-protocolrecovery";
const CARDS = "docs/cards_and_blocks.md#cards-cards-and-tagged-blocks-blocks";
const MESSAGE = "docs/message.md#the-message-document-message-ai-sdk-ag-ui";

/** `[id, statement, anchor]` of every rule. */
export const RULES: readonly (readonly [string, string, string])[] = [
  // v1 envelope and events
  ["v1.envelope.object", "An envelope is a JSON object.", V1],
  [
    "v1.envelope.schema-version",
    'schemaVersion is exactly the number 1; anything else (missing, "1", 0, 2, true) is unsupported-version.',
    V1,
  ],
  [
    "v1.envelope.ids",
    "conversationId, turnId and eventId are non-empty strings (any other content is the host's choice).",
    V1,
  ],
  [
    "v1.envelope.wire-ids",
    "Every v1 id (conversationId, turnId, eventId, sessionId, callId, correlationId) is a wire id: no CR, LF, NUL or lone UTF-16 surrogate (a pair is fine), so it can travel as an SSE id or a header.",
    V1,
  ],
  ["v1.envelope.seq", "seq is a positive safe integer (1 … 2^53−1).", V1],
  [
    "v1.envelope.at",
    "at is optional; when present a finite number ≥ 0 (epoch milliseconds, fractions allowed).",
    V1,
  ],
  ["v1.envelope.event", "event is an object whose type is a string.", V1],
  [
    "v1.envelope.event-type",
    "event.type is one of the sixteen v1 types; any other string is unknown-event-type.",
    V1,
  ],
  [
    "v1.envelope.unknown-keys",
    "Unknown keys are accepted and ignored on the envelope, the event, usage, blocks and sources.",
    V1,
  ],
  ["v1.event.session", "session: sessionId is a non-empty string.", V1],
  ["v1.event.text", "delta / reasoning: text is a string; the empty string is accepted.", V1],
  [
    "v1.event.tool-call",
    "tool_call: callId and name are non-empty strings; input is optional and any JSON value.",
    V1,
  ],
  [
    "v1.event.tool-progress",
    "tool_progress: callId non-empty; message a string; progress a number from 0 to 1 inclusive.",
    V1,
  ],
  [
    "v1.event.tool-result",
    "tool_result: callId and name non-empty, ok a boolean (required), summary a string, output any JSON.",
    V1,
  ],
  [
    "v1.event.grounded-blocks",
    "tool_result.blocks: an array of {id non-empty, text string, sources: array of {ref non-empty, label string}}.",
    V1,
  ],
  [
    "v1.event.provenance",
    "provenance: engine and model non-empty; provider a string; accountRoute a string or null.",
    V1,
  ],
  [
    "v1.event.card",
    "card: an object with non-empty correlationId, string prompt and finite createdAt; every other key passes (product kinds included).",
    V1,
  ],
  [
    "v1.event.card-closed",
    "card_closed: correlationId non-empty; resolution optional, one of submitted, declined, cancelled, expired, interrupted.",
    V1,
  ],
  [
    "v1.event.state",
    "state: version a non-negative safe integer; the snapshot key is required (null for none).",
    V1,
  ],
  [
    "v1.event.done",
    "done: stopReason a string; usage an object whose counts are finite numbers ≥ 0.",
    V1,
  ],
  [
    "v1.event.error",
    "error: message a string, code a string, retryable a boolean and required (explicit retry permission).",
    V1,
  ],
  [
    "v1.event.retry-rule",
    "error.retryAfterMs is a finite number ≥ 0 (milliseconds), allowed only when retryable is true.",
    V1,
  ],
  ["v1.event.navigate", "navigate: href is a string.", V1],
  [
    "v1.event.unique-block-ids",
    "A tool_result's grounded block ids are unique within its blocks (not expressible in JSON Schema).",
    V1,
  ],
  [
    "v1.event.ext",
    "ext: name is lowercase namespace.name segments joined by dots (letters and digits, single underscores, a letter first), at most 128 characters; channel optional, event, state or transient; data required (any JSON, null for none).",
    V1,
  ],
  [
    "v1.event.extension-data-bounds",
    "ext data nests arrays and objects at most 32 deep and holds at most 10,000 JSON values (not expressible in JSON Schema).",
    V1,
  ],
  ["v1.event.elided", "elided: of is navigate or ext (the transient event it stands for).", V1],
  [
    "v1.event.turn-status",
    "turn_status: status is running, cancelled, interrupted or needs-reconciliation; reason a string.",
    V1,
  ],
  // ChatStateV1
  [
    "v1.state.shape",
    "A saved ChatStateV1 has its fields typed as the events they come from (non-empty ids, a known status, lastSeq a non-negative integer, strings, arrays); unknown keys are ignored.",
    V1,
  ],
  [
    "v1.state.last-event-id",
    "lastEventId is null exactly when lastSeq is 0, else a non-empty string.",
    V1,
  ],
  [
    "v1.state.status-cards",
    "awaiting-input has an open card; running, completed, failed and cancelled have none (interrupted and needs-reconciliation may keep open cards).",
    V1,
  ],
  [
    "v1.state.status-terminal",
    "done is present exactly when completed, error exactly when failed.",
    V1,
  ],
  [
    "v1.state.tool-finished",
    "A tool call has finishedSeq exactly when its status is no longer running.",
    V1,
  ],
  [
    "v1.state.tool-unfinished",
    "A finished turn (completed, failed, cancelled) has no running tool call; only a finished turn has unfinished ones.",
    V1,
  ],
  [
    "v1.state.extensions",
    "extensionState (extension name → {data, seq}, 1 to 128 names) and extensionEvents ({name, data, seq}, non-empty) are absent when there is none; seqs positive.",
    V1,
  ],
  [
    "v1.state.unique-ids",
    "Tool callIds are unique; card correlationIds are unique across openCards and closedCards (not expressible in JSON Schema).",
    V1,
  ],
  [
    "v1.state.seq-bounds",
    "Every tool's startedSeq and finishedSeq is at most lastSeq (not expressible in JSON Schema).",
    V1,
  ],
  ["v1.capabilities.shape", "ChatCapabilities is five booleans; unknown keys are ignored.", V1],
  // fold: ordering, frames
  [
    "v1.order.gap",
    "A seq greater than lastSeq + 1 is refused as gap (the first event must have seq 1); the state is unchanged.",
    V1,
  ],
  [
    "v1.order.duplicate",
    "seq ≤ lastSeq with an eventId already applied is refused as duplicate (a re-send).",
    V1,
  ],
  ["v1.order.reordered", "seq ≤ lastSeq with a new eventId is refused as reordered.", V1],
  [
    "v1.order.foreign-conversation",
    "An envelope of another conversation is refused as foreign-conversation.",
    V1,
  ],
  ["v1.order.foreign-turn", "An envelope of another turn is refused as foreign-turn.", V1],
  [
    "v1.frame.invalid-json",
    "A frame that is not JSON is refused as invalid-json and changes nothing.",
    V1,
  ],
  [
    "v1.frame.too-large",
    "A text frame over 1 MiB of UTF-8 (1,048,576 bytes) is refused as too-large before parsing and changes nothing.",
    V1,
  ],
  // fold: lifecycle
  [
    "v1.lifecycle.terminal",
    "completed, failed and cancelled are terminal: every later event is an illegal-transition.",
    V1,
  ],
  [
    "v1.lifecycle.paused",
    "interrupted and needs-reconciliation accept only turn_status and error; content events are illegal-transition.",
    V1,
  ],
  [
    "v1.lifecycle.no-complete-with-open-card",
    "done is refused (illegal-transition) while a card is open: close it first.",
    V1,
  ],
  [
    "v1.lifecycle.transitions",
    "turn_status may only move along TURN_TRANSITIONS (e.g. interrupted → needs-reconciliation is illegal).",
    V1,
  ],
  ["v1.lifecycle.card-awaits-input", "A card moves the turn to awaiting-input.", V1],
  [
    "v1.lifecycle.last-card-resumes",
    "Closing the last open card moves awaiting-input back to running.",
    V1,
  ],
  [
    "v1.lifecycle.resume-with-open-cards",
    "turn_status running while cards are open moves the turn to awaiting-input.",
    V1,
  ],
  ["v1.lifecycle.same-status", "turn_status to the current status is an accepted no-op.", V1],
  [
    "v1.lifecycle.error-fails",
    "error moves any non-terminal turn to failed and is kept as the state's error.",
    V1,
  ],
  [
    "v1.lifecycle.done-completes",
    "done moves a running turn to completed and is kept as the state's done.",
    V1,
  ],
  [
    "v1.lifecycle.cards-close-with-turn",
    "When the turn fails its open cards close as interrupted, when it is cancelled as cancelled (closedCards, in open order).",
    V1,
  ],
  [
    "v1.lifecycle.unfinished-calls",
    "When the turn ends (completed, failed, cancelled) its running tool calls become unfinished, finishedSeq the ending event's seq.",
    V1,
  ],
  [
    "v1.lifecycle.turn-status",
    "turn_status moves the turn to its status; its reason is kept as statusReason.",
    V1,
  ],
  // fold: tools and cards
  [
    "v1.tools.duplicate-call",
    "A tool_call reusing a callId of the turn is refused as duplicate-call.",
    V1,
  ],
  [
    "v1.tools.unknown-call",
    "tool_progress / tool_result for a callId never called is refused as unknown-call.",
    V1,
  ],
  [
    "v1.tools.finished-call",
    "tool_progress / tool_result for a call that has its result is refused as finished-call.",
    V1,
  ],
  [
    "v1.tools.call-mismatch",
    "A tool_result whose name differs from its call's is refused as call-mismatch.",
    V1,
  ],
  [
    "v1.fold.tool-result",
    "tool_call adds a running tool (startedSeq); tool_result sets status ok or error, summary, output, blocks and finishedSeq.",
    V1,
  ],
  [
    "v1.fold.tool-progress",
    "tool_progress sets the tool's progress and progressMessage (last one wins).",
    V1,
  ],
  [
    "v1.cards.duplicate-card",
    "A card whose correlationId is open, or was closed in this turn, is refused as duplicate-card.",
    V1,
  ],
  [
    "v1.cards.unknown-card",
    "card_closed for a card that is not open is refused as unknown-card.",
    V1,
  ],
  [
    "v1.fold.cards",
    "openCards lists open cards in open order (full snapshot); closedCards lists closed ones in close order with their resolution.",
    V1,
  ],
  ["v1.fold.text", "The state's text is every delta's text concatenated in seq order.", V1],
  [
    "v1.fold.reasoning",
    "The state's reasoning is every reasoning text concatenated in seq order.",
    V1,
  ],
  ["v1.fold.last-write-wins", "sessionId, provenance and state are the last ones applied.", V1],
  [
    "v1.fold.extensions",
    "ext events fold by channel: state → extensionState[name] = {data, seq} (last write wins), event (default) → appended to extensionEvents, transient → not kept.",
    V1,
  ],
  [
    "v1.fold.extension-state-names",
    "A turn keeps at most 128 state-channel extension names; an event with one more name is too-many-extensions.",
    V1,
  ],
  ["v1.fold.elided", "elided takes its seq and changes nothing else (no gap on replay).", V1],
  [
    "v1.fold.cursor",
    "lastSeq and lastEventId are those of the last applied envelope (refused frames do not move the cursor).",
    V1,
  ],
  // capabilities and version
  [
    "v1.capabilities.required-only",
    "Only the required capabilities are checked; each one not declared true is listed in missing, in declaration order.",
    V1,
  ],
  ["v1.capabilities.exact-true", "A declared capability counts only when it is exactly true.", V1],
  [
    "v1.capabilities.independent",
    "No capability implies another (persisted history never implies restart recovery).",
    V1,
  ],
  [
    "v1.capabilities.unknown-refused",
    "A required name that is not a capability is refused (listed in unknown), never ignored.",
    V1,
  ],
  [
    "v1.capabilities.required-record",
    'In a record of requirements, true requires a capability and false or absent does not; any other value (1, "true", null) is refused, listed in invalid.',
    V1,
  ],
  [
    "v1.version.exact",
    "negotiateChatVersion accepts exactly the numbers 0 and 1; strings, booleans, null and the rest are refused.",
    V1,
  ],
  ["v1.version.known", "Only 0 and 1 are versions: 2, 1.5 and -1 are unsupported-version.", V1],
  [
    "v1.version.highest-common",
    "negotiateChatVersions picks the highest version both sides speak.",
    V1,
  ],
  ["v1.version.server-list", "negotiateChatVersions only picks a version the server lists.", V1],
  // v0
  [
    "v0.event.shape",
    "A normalised v0 event is one of the eleven types with its required fields typed (empty strings accepted, state.version any number, done.usage any object).",
    V0,
  ],
  // SSE
  ["sse.bom", "One U+FEFF byte order mark is removed at the start of the stream.", SSE],
  ["sse.line-endings", "Lines end with CRLF, LF or CR.", SSE],
  [
    "sse.crlf-across-chunks",
    "A CR at the end of one chunk and an LF at the start of the next are one line end.",
    SSE,
  ],
  [
    "sse.field-value-space",
    "One space after the field's colon is removed; further spaces are kept.",
    SSE,
  ],
  [
    "sse.no-colon-field",
    'A line without a colon is a field name with an empty value ("data" alone is an empty data line).',
    SSE,
  ],
  ["sse.data-join", "The data lines of one event are joined with LF.", SSE],
  [
    "sse.dispatch-needs-data",
    "A blank line dispatches an event only when a data line was seen (an id-only block still sets the last event id).",
    SSE,
  ],
  [
    "sse.comments",
    "A line starting with a colon is a comment (reported with one leading space removed), never data.",
    SSE,
  ],
  ["sse.id-nul", "An id value containing NUL is ignored.", SSE],
  [
    "sse.last-event-id",
    "The last event id persists across events; an initial one can be given.",
    SSE,
  ],
  ["sse.empty-id-resets", "An empty id resets the last event id.", SSE],
  ["sse.retry-digits", "retry is reported only when its value is ASCII digits.", SSE],
  [
    "sse.unterminated",
    "An unterminated trailing event is not dispatched, and its id does not count.",
    SSE,
  ],
  [
    "sse.event-name",
    "event sets the type of the event being built only; an empty value means none.",
    SSE,
  ],
  [
    "sse.limits",
    "A line or an event's data longer than its bound (UTF-16 code units) is refused (line-too-long, event-too-large).",
    SSE,
  ],
  [
    "sse.utf8",
    "Bytes are decoded as UTF-8 across chunk boundaries; invalid sequences become U+FFFD.",
    SSE,
  ],
  // legacy
  ["legacy.scout.token", "Scout token{content} upgrades to delta{text}.", LEGACY],
  [
    "legacy.scout.tool-start",
    "Scout tool_start names its tool in tool or name (both accepted; both present and different, or not strings, refused as invalid-event).",
    LEGACY,
  ],
  [
    "legacy.call-identity",
    "A tool frame without callId uses the host's callIdFor mapping (n-th call / result); without one it is missing-call-identity, never invented.",
    LEGACY,
  ],
  [
    "legacy.result-status",
    "A tool_result whose ok is absent or not a boolean is unknown-result-status, never a success.",
    LEGACY,
  ],
  [
    "legacy.retry-permission",
    "A legacy error needs the host's retryable decision (else missing-retry-permission); retryAfterMs only with retryable true.",
    LEGACY,
  ],
  [
    "legacy.domain-frames",
    "Domain frames (Scout products, broaden, …; Papercup names outside v0) and heartbeats are not-chat-event.",
    LEGACY,
  ],
  ["legacy.scout.decimal-id", "A non-empty Scout id: is decimal digits, else invalid-id.", LEGACY],
  [
    "legacy.frame-json",
    "A frame is {data: string, id?, event?} (else invalid-frame); its data JSON (invalid-json), a Scout object (not-an-object) with a string type (missing-type).",
    LEGACY,
  ],
  [
    "legacy.papercup.named",
    "A Papercup frame needs an event: name (missing-event-name); a payload type differing from it is type-mismatch.",
    LEGACY,
  ],
  [
    "legacy.papercup.v0-fields",
    "A Papercup payload is read with the v0 rules: a missing required field is invalid-event.",
    LEGACY,
  ],
  [
    "legacy.v1-valid",
    "The upgraded event must be a valid v1 event (e.g. a card needs createdAt, provenance non-empty engine and model), else invalid-event.",
    LEGACY,
  ],
  [
    "legacy.allocation",
    "The host allocates eventId and seq only for accepted frames: a refused frame consumes no seq.",
    LEGACY,
  ],
  [
    "legacy.allocation-checked",
    "An allocation must be a non-empty eventId and a positive integer seq greater than the last one, else invalid-allocation.",
    LEGACY,
  ],
  [
    "legacy.host-context",
    "Conversation and turn ids come from the host (non-empty, else invalid-context); the host's at is stamped on every envelope.",
    LEGACY,
  ],
  // replay
  [
    "replay.stale-cursor",
    "A cursor below the retained window (afterSeq < lowestRetainedSeq − 1) is stale-cursor.",
    REPLAY,
  ],
  [
    "replay.transient-elided",
    "A replay re-sends a transient envelope (navigate, an ext on the transient channel) as an elided event with the same eventId and seq, every other one as it is: no gap, nothing fires twice.",
    REPLAY,
  ],
  ["replay.cursor-beyond-latest", "A cursor after the latest seq is cursor-beyond-latest.", REPLAY],
  [
    "replay.invalid-cursor",
    "A cursor that is not a non-negative safe integer is invalid-cursor.",
    REPLAY,
  ],
  [
    "replay.gap",
    "A missing seq in the replayed suffix, or a suffix that ends before the latest seq, is gap.",
    REPLAY,
  ],
  [
    "replay.reordered",
    "A frame whose seq is not after the previous one, or that repeats an eventId, is reordered.",
    REPLAY,
  ],
  [
    "replay.foreign-frame",
    "A frame that is not a v1 envelope of the requested conversation and turn is foreign-frame.",
    REPLAY,
  ],
  [
    "replay.window-too-large",
    "A replay that would buffer more than maxFrames frames is window-too-large.",
    REPLAY,
  ],
  [
    "replay.invalid-window",
    "Bounds that are not lowestRetainedSeq ≥ 1, latestSeq ≥ 0, lowestRetainedSeq ≤ latestSeq + 1 are invalid-window.",
    REPLAY,
  ],
  [
    "replay.stale-after-gap",
    "A gap found after retention moved past the cursor is reported as stale-cursor.",
    REPLAY,
  ],
  [
    "replay.exact-suffix",
    "A valid replay returns exactly the frames afterSeq + 1 … latest, in order.",
    REPLAY,
  ],
  // blocks
  [
    "blocks.split.segments",
    "splitTurnText returns text, report, ask and invalid segments in order; their text/raw concatenated is the input.",
    CARDS,
  ],
  ["blocks.split.all-blocks", "Every block is found, not only the first.", CARDS],
  ["blocks.tags.case-insensitive", "Tags match in any ASCII case (<ASK>, </Report>).", CARDS],
  [
    "blocks.tags.exact-open",
    "An opening tag is exactly <ask> or <report>: with attributes or spaces it is text.",
    CARDS,
  ],
  [
    "blocks.unclosed",
    "An opening tag without its close is invalid (unclosed), covering the tag alone; the text after it is scanned again.",
    CARDS,
  ],
  ["blocks.empty-body", "A block whose body is blank is invalid (empty-body).", CARDS],
  [
    "blocks.malformed-json",
    "A block whose trimmed body is not JSON is invalid (malformed-json).",
    CARDS,
  ],
  [
    "blocks.invalid-block",
    "A block whose JSON is not a valid ask / report payload is invalid (invalid-block).",
    CARDS,
  ],
  [
    "blocks.too-large",
    "A block whose close tag does not start within the body bound is invalid (too-large).",
    CARDS,
  ],
  [
    "blocks.ask.normalise",
    "An ask block is normalised: question, option ids, labels (falling back to the id), descriptions and refs trimmed; empty ones dropped.",
    CARDS,
  ],
  [
    "blocks.report.normalise",
    "A report block is normalised: titles fall back to the slug, item text to the id, strings trimmed, empty plans and items dropped.",
    CARDS,
  ],
  [
    "blocks.report.goal-ref",
    "A report's goalReport must be a valid GOAL owner report reference, else the whole block is invalid.",
    CARDS,
  ],
  ["blocks.stray-close", "A close tag without its opening tag is plain text.", CARDS],
  [
    "blocks.normalised-strings",
    "In a normalised block every string is non-empty and has no surrounding whitespace.",
    CARDS,
  ],
  [
    "blocks.report.plans-or-goal",
    "A normalised report has at least one plan or a goalReport.",
    CARDS,
  ],
  [
    "blocks.goal-report-ref",
    "A goalReport has exactly schemaVersion 1, goalId, reportId and a 64-character lowercase hex bodySha256.",
    CARDS,
  ],
  [
    "blocks.non-empty-lists",
    "ask options and refs, and plan items, are absent or non-empty.",
    CARDS,
  ],
  // cards
  [
    "cards.snapshot.shape",
    "An open card: correlationId and prompt strings, createdAt a number, a presentation of a built-in kind, typed optional fields.",
    CARDS,
  ],
  [
    "cards.response.shape",
    "A card response: action submit, decline or cancel, a string correlationId, and for submit a value object.",
    CARDS,
  ],
  [
    "cards.answer.correlation",
    "An answer whose correlationId is not the card's is correlation-mismatch.",
    CARDS,
  ],
  ["cards.answer.cancel-always", "cancel is always allowed.", CARDS],
  [
    "cards.answer.decline",
    "decline is allowed only when the card's allowDecline is true (or absent with allowDeclineDefault true).",
    CARDS,
  ],
  [
    "cards.answer.response-shape",
    "A response that is not {action, correlationId, value?} of the right types is invalid-response.",
    CARDS,
  ],
  [
    "cards.answer.choice",
    "radio and select: value {optionId} naming one of the card's options.",
    CARDS,
  ],
  [
    "cards.answer.checkbox",
    "checkbox: value {optionIds}, non-empty, unique, every id one of the options.",
    CARDS,
  ],
  ["cards.answer.text", "text: value {text}, a string that is not blank.", CARDS],
  [
    "cards.answer.slider",
    "slider: value {value}, a finite number within min/max and on step counted from min (float tolerance, never half a step).",
    CARDS,
  ],
  ["cards.answer.date", "date: value {date}, a real YYYY-MM-DD date within min/max.", CARDS],
  [
    "cards.answer.only-kind-fields",
    "An answer carrying a field its kind does not define is unexpected-field.",
    CARDS,
  ],
  [
    "cards.answer.confirm",
    "A card without a presentation is answered by {} or {confirmed: true} (or {text} unless it is an approval card); confirmed false is refused.",
    CARDS,
  ],
  [
    "cards.answer.invalid-card",
    "A card malformed for its kind (no options, repeated option ids, bad slider or date bounds) refuses every submit as invalid-card.",
    CARDS,
  ],
  [
    "cards.answer.unknown-kind",
    "A presentation kind that is not built in is unknown-kind (products register theirs).",
    CARDS,
  ],
  [
    "cards.answer.rebuilt",
    "An accepted answer is rebuilt from the contract's fields only (unknown keys dropped).",
    CARDS,
  ],
  // message
  [
    "message.part-types",
    "A part's type is text, reasoning, source-url, source-document, file, step-start, tool-<name>, dynamic-tool or data-<identifier>.",
    MESSAGE,
  ],
  [
    "message.tool-states",
    "Tool parts follow the ai@7 state rules (approval, errorText, output and input presence per state).",
    MESSAGE,
  ],
  ["message.data-part", "A data part has a type data-<identifier> and a data key.", MESSAGE],
  ["message.non-assistant-parts", "A system or user message has at least one part.", MESSAGE],
  [
    "message.iso-time",
    "createdAt and delivery at are ISO-8601 date-times with Z or an offset, real calendar dates.",
    MESSAGE,
  ],
  [
    "message.inbound-closed",
    "An inbound message body refuses provenance, delivery and any unknown key.",
    MESSAGE,
  ],
  [
    "message.provenance",
    "Provenance is one of three closed shapes; an endorsement needs a non-empty attestedBy.",
    MESSAGE,
  ],
];

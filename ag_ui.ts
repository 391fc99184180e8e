/**
 * `@papercusp/chat-protocol/ag-ui`: v1 envelopes as AG-UI events
 * (`@ag-ui/core` 1.0 event shapes): {@link v1ToAgUiEvents} for a whole turn,
 * {@link V1ToAgUi} incrementally. A refusal ({@link AgUiRefusal}) is
 * reported beside the events, never thrown.
 *
 * @example
 * ```ts
 * import { v1ToAgUiEvents } from "@papercusp/chat-protocol/ag-ui";
 * const r = v1ToAgUiEvents([
 *   { schemaVersion: 1, conversationId: "c1", turnId: "t1", eventId: "e1", seq: 1, event: { type: "delta", text: "Hi" } },
 * ]);
 * r.events.map((e) => e.type); // RUN_STARTED, TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT
 * ```
 *
 * @module
 */
export {
  type AgUiEvent,
  type AgUiEventBase,
  type AgUiInterrupt,
  type AgUiRefusal,
  type AgUiTokenUsage,
  V1ToAgUi,
  v1ToAgUiEvents,
  type V1ToAgUiOptions,
  type V1ToAgUiResult,
  V1ToAgUiStream,
  type V1ToAgUiStreamOptions,
} from "./src/ag_ui/ag_ui.ts";
export {
  type AgUiResume,
  type AgUiResumeRefusal,
  type AgUiResumeRefusalCode,
  MAX_AG_UI_RESUME_ENTRIES,
  parseAgUiResume,
} from "./src/ag_ui/ag_ui_resume.ts";

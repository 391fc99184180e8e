/**
 * The capture `inspect` shows when given no file: a real AI SDK UI message
 * stream, byte for byte `fixtures/ai-sdk/tool_two_steps.sse` (made by
 * `ai@7`'s `streamText` with `MockLanguageModelV4` and
 * `toUIMessageStreamResponse()`: text, a tool call over two steps). Embedded
 * so the npm `bin` works without the fixtures; a test keeps it identical to
 * the fixture.
 *
 * @module
 */

/** Where the bundled capture comes from. */
export const BUNDLED_CAPTURE_NAME = "fixtures/ai-sdk/tool_two_steps.sse";

/** The capture text (SSE). */
export const BUNDLED_CAPTURE: string =
  'data: {"type":"start","messageId":"msg-tool_two_steps"}\n\ndata: {"type":"start-step"}\n\ndata: {"type":"text-start","id":"t1"}\n\ndata: {"type":"text-delta","id":"t1","delta":"Let me check."}\n\ndata: {"type":"text-end","id":"t1"}\n\ndata: {"type":"tool-input-start","toolCallId":"call-1","toolName":"weather"}\n\ndata: {"type":"tool-input-delta","toolCallId":"call-1","inputTextDelta":"{\\"city\\":"}\n\ndata: {"type":"tool-input-delta","toolCallId":"call-1","inputTextDelta":"\\"Paris\\"}"}\n\ndata: {"type":"tool-input-available","toolCallId":"call-1","toolName":"weather","input":{"city":"Paris"}}\n\ndata: {"type":"tool-output-available","toolCallId":"call-1","output":{"city":"Paris","tempC":18}}\n\ndata: {"type":"finish-step"}\n\ndata: {"type":"start-step"}\n\ndata: {"type":"text-start","id":"t2"}\n\ndata: {"type":"text-delta","id":"t2","delta":"It is 18\u00b0C in Paris."}\n\ndata: {"type":"text-end","id":"t2"}\n\ndata: {"type":"finish-step"}\n\ndata: {"type":"finish","finishReason":"stop"}\n\ndata: [DONE]\n\n';

/**
 * The AI SDK's `Chat` without a UI framework: `AbstractChat` over an
 * in-memory `ChatState` (what `@ai-sdk/react` and friends provide), for
 * tests that drive `DefaultChatTransport` headless. `onMessage` sees every
 * message the chat pushes or replaces (each streamed update).
 *
 * @module
 */
import { AbstractChat, type ChatState, type ChatStatus, type UIMessage } from "ai";

class MemoryChatState implements ChatState<UIMessage> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  readonly #onMessage: ((m: UIMessage) => void) | undefined;
  constructor(onMessage?: (m: UIMessage) => void) {
    this.#onMessage = onMessage;
  }
  pushMessage = (m: UIMessage) => {
    this.#onMessage?.(m);
    this.messages = [...this.messages, m];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (i: number, m: UIMessage) => {
    this.#onMessage?.(m);
    this.messages = this.messages.map((x, j) => j === i ? structuredClone(m) : x);
  };
  snapshot = <T>(t: T): T => structuredClone(t);
}

/** `Chat`'s options without `state`. */
export type HeadlessChatInit = Omit<
  ConstructorParameters<typeof AbstractChat<UIMessage>>[0],
  "state"
>;

/** A headless `Chat`; `onMessage` sees each pushed or replaced message. */
export class HeadlessChat extends AbstractChat<UIMessage> {
  constructor(init: HeadlessChatInit, onMessage?: (m: UIMessage) => void) {
    super({ ...init, state: new MemoryChatState(onMessage) });
  }
}

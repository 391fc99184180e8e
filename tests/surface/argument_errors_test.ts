/**
 * A programmer's mistake throws the area's exported typed error class with
 * a stable code, never a plain `TypeError` / `RangeError` (issue 23's list):
 * `createChatState("", "t")`, `new ChatStateFolder("a\nb", "t")`,
 * `createExtensionRegistry(5)`, `utf8ByteLength(5)` → `ChatArgumentError`;
 * `turnSeqEventId("", 1)` → `HttpArgumentError`; `createCardValidator(<revoked
 * proxy>)` → `CardArgumentError`. The postgres package's `readAfter` / `trim`
 * and `tableNames` are pinned in postgres/tests/argument_errors_test.ts.
 */
import assert from "node:assert/strict";
import {
  ChatArgumentError,
  ChatStateFolder,
  createChatState,
  createExtensionRegistry,
} from "../../mod.ts";
import { utf8ByteLength } from "../../src/v1/parse.ts";
import { HttpArgumentError, turnSeqEventId } from "../../http.ts";
import { CardArgumentError, createCardValidator } from "../../cards.ts";

function throwsCoded(
  f: () => unknown,
  cls: abstract new (...a: never[]) => Error & { code: string },
  code: string,
): void {
  let thrown: unknown;
  try {
    f();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof cls, `expected ${cls.name}, got ${String(thrown)}`);
  assert.equal((thrown as { code: string }).code, code);
  assert.equal((thrown as Error).name, cls.name);
}

const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

Deno.test("v1: programmer mistakes throw ChatArgumentError with a code", () => {
  throwsCoded(() => createChatState("", "t"), ChatArgumentError, "invalid-id");
  throwsCoded(() => createChatState("c", "t\u0000"), ChatArgumentError, "invalid-id");
  throwsCoded(() => new ChatStateFolder("a\nb", "t"), ChatArgumentError, "invalid-id");
  throwsCoded(() => createExtensionRegistry(5 as never), ChatArgumentError, "invalid-registry");
  throwsCoded(
    () => createExtensionRegistry({ "a.b": 5 as never }),
    ChatArgumentError,
    "invalid-registry",
  );
  throwsCoded(
    () => createExtensionRegistry(revoked() as never),
    ChatArgumentError,
    "invalid-registry",
  );
  throwsCoded(() => utf8ByteLength(5 as never), ChatArgumentError, "invalid-argument");
});

Deno.test("http: turnSeqEventId's mistakes throw HttpArgumentError with a code", () => {
  throwsCoded(() => turnSeqEventId("", 1), HttpArgumentError, "invalid-turn-id");
  throwsCoded(() => turnSeqEventId("t", 0), HttpArgumentError, "invalid-seq");
  throwsCoded(() => turnSeqEventId("t", 1.5), HttpArgumentError, "invalid-seq");
});

Deno.test("cards: createCardValidator(<revoked proxy>) throws CardArgumentError", () => {
  throwsCoded(() => createCardValidator(revoked() as never), CardArgumentError, "invalid-options");
  const getter = {
    get kinds(): never {
      throw new Error("boom");
    },
  };
  throwsCoded(() => createCardValidator(getter as never), CardArgumentError, "invalid-options");
});

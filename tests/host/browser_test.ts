/**
 * The chat host's web page in real headless Chromium (Debian's `chromium`,
 * driven by puppeteer-core): a whole scripted turn against a real host
 * process over real HTTP, sampled every 20 ms for partial tags; and hostile
 * model strings (a synthetic v1 stream served to the same page) shown as text.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  announceSkip,
  chromiumMissing,
  installDomSampler,
  launchBrowser,
  type PageDocument,
  type PageElement,
  readDomSamples,
  streamedText,
} from "../_helpers/browser.ts";
import { startHost } from "./_host_process.ts";
import { bundleApp } from "../../examples/chat_host/bundle.ts";
import { serializeAskTag, serializeReportTag } from "../../blocks.ts";
import { encodeChatEnvelopeFrame } from "../../sse.ts";
import type { ChatEventV1 } from "../../mod.ts";
import type { Page } from "puppeteer-core";

/** Every wait below is a give-up bound only (a busy machine makes the page slower, never wrong). */
const GIVE_UP_MS = 120_000;

declare const document: PageDocument;

const skip = announceSkip(chromiumMissing());
const WEB = new URL("../../examples/chat_host/web/", import.meta.url);

Deno.test({
  name:
    "browser: a whole turn renders (text, report and ask blocks as UI, tools done, the card answered in the page, completed; no partial tag in any DOM sample); a reload shows it again; a second turn is cancelled with the button",
  ignore: skip,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const host = await startHost({ deltaMs: 8, effectMs: 150 });
    const session = await launchBrowser();
    try {
      const { page } = session;
      const pageErrors: string[] = [];
      page.on("pageerror", (e) => pageErrors.push(String(e)));
      await installDomSampler(page);
      await page.goto(host.url);
      assert.equal(
        await page.$eval("#conn", (e) => (e as unknown as PageElement).dataset.state),
        "idle",
      );
      await page.type("#prompt-input", "Where is my desk lamp? <b>now</b>");
      await page.click("#send");

      // The card opens after the first tool; answer it through the form.
      await page.waitForSelector("form.card", { timeout: GIVE_UP_MS });
      await page.waitForSelector("#turn[data-status='awaiting-input']", { timeout: GIVE_UP_MS });
      await page.$eval(
        "form.card button[value='submit']",
        (b) => (b as unknown as PageElement).click(),
      );
      await page.waitForSelector("form.card[data-state='answered']", { timeout: GIVE_UP_MS });
      await page.waitForSelector("#turn[data-status='completed']", { timeout: GIVE_UP_MS });
      await page.waitForSelector("#conn[data-state='closed']", { timeout: GIVE_UP_MS });
      await new Promise((r) => setTimeout(r, 100)); // a last sample of the final page

      const view = await page.evaluate(() => ({
        text: [...document.querySelectorAll("#timeline .text")].map((e) => e.textContent),
        reports: [...document.querySelectorAll("#timeline .report")].map((e) => ({
          title: e.querySelector(".report-title")?.textContent,
          items: [...e.querySelectorAll(".items li")].map((li) => li.textContent),
        })),
        asks: [...document.querySelectorAll("#timeline .ask")].map((e) => ({
          question: e.querySelector(".ask-question")?.textContent,
          options: [...e.querySelectorAll(".ask-option")].map((b) => b.textContent),
        })),
        tools: [...document.querySelectorAll("#timeline .tool")].map((e) => [
          e.querySelector(".tool-name")?.textContent,
          (e as unknown as PageElement).dataset.status,
        ]),
        card: document.querySelector("form.card .card-note")?.textContent,
        boldElements: document.querySelectorAll("#timeline b, #user-prompt b").length,
        prompt: document.getElementById("user-prompt")?.textContent,
        problems: document.getElementById("problems")?.textContent,
      }));
      const all = view.text.join("");
      assert.match(all, /^You asked: "Where is my desk lamp\? /);
      assert.match(all, /<b>Nothing<\/b> else to do\./, "model HTML is shown as text");
      assert.equal(view.boldElements, 0, "no element made from model or user text");
      assert.equal(view.prompt, "Where is my desk lamp? <b>now</b>");
      assert.equal(view.reports.length, 1);
      assert.match(view.reports[0].title ?? "", /^Refund request for A-\d+$/);
      assert.equal(view.reports[0].items.length, 3);
      assert.equal(view.asks.length, 1);
      assert.match(view.asks[0].question ?? "", /^Refund 42\.00 EUR for A-\d+\?$/);
      assert.deepEqual(view.asks[0].options, ["Refund it", "Keep the order"]);
      assert.deepEqual(view.tools, [["lookup_order", "done"], ["issue_refund", "done"]]);
      assert.match(view.card ?? "", /^Answered/);
      assert.equal(view.problems, "");

      const samples = await readDomSamples(page);
      assert.deepEqual(samples.bad, [], "a block tag or a partial tag was visible");
      const final = await streamedText(page);
      for (const t of samples.texts) {
        assert.ok(final.startsWith(t), `a sampled text is not a prefix of the final text: ${t}`);
      }
      console.log(
        `  ${samples.count} DOM samples, ${samples.texts.length} distinct texts, none with a tag`,
      );
      assert.ok(samples.texts.length >= 20, `too few distinct samples: ${samples.texts.length}`);
      assert.deepEqual(pageErrors, []);

      // A reload replays the turn from the start and shows the same page.
      const before = await page.$eval("#timeline", (e) => (e as unknown as PageElement).innerText);
      await page.reload();
      await page.waitForSelector("#turn[data-status='completed']", { timeout: GIVE_UP_MS });
      await page.waitForSelector("form.card[data-state='answered']", { timeout: GIVE_UP_MS });
      assert.equal(
        await page.$eval("#timeline", (e) => (e as unknown as PageElement).innerText),
        before,
      );

      // A second turn in the same conversation, cancelled with the page's button mid-stream.
      const firstTurn = new URL(page.url()).searchParams.get("turn");
      await page.type("#prompt-input", "Never mind.");
      await page.click("#send");
      await page.waitForFunction(
        (t: string | null) => new URL(location.href).searchParams.get("turn") !== t,
        { timeout: GIVE_UP_MS },
        firstTurn,
      );
      await page.waitForFunction(
        () => (document.querySelector("#timeline .text")?.textContent ?? "").length > 10,
        { timeout: GIVE_UP_MS, polling: 10 },
      );
      await page.click("#cancel");
      await page.waitForSelector("#turn[data-status='cancelled']", { timeout: GIVE_UP_MS });
      await page.waitForSelector("#conn[data-state='closed']", { timeout: GIVE_UP_MS });
      const cancelled = await page.evaluate(() => ({
        status: document.getElementById("status")?.textContent,
        cancelDisabled: document.querySelector("#cancel[disabled]") !== null,
        running: document.querySelectorAll("#timeline .tool[data-status='running']").length,
      }));
      assert.deepEqual(cancelled, { status: "Cancelled", cancelDisabled: true, running: 0 });
      assert.equal(new URL(page.url()).searchParams.get("conversation") !== null, true);
    } finally {
      await session.close();
      await host.stop();
    }
  },
});

/**
 * Serves the page at http://chat.test/ from the files on disk (app.js: the
 * given bundle) and answers `/api/turns/t1/events` with `events(lastEventId)`
 * (a status and body; 200 and an SSE body by default), all inside Chromium's
 * request interception: no server.
 */
async function serveSynthetic(
  page: Page,
  app: string,
  events: (lastEventId: string | undefined) => { status?: number; body: string },
  other?: (request: import("puppeteer-core").HTTPRequest) => Promise<boolean>,
): Promise<void> {
  await page.setRequestInterception(true);
  page.on("request", async (request) => {
    const url = new URL(request.url());
    const file: Record<string, [string, string]> = {
      "/": ["index.html", "text/html"],
      "/style.css": ["style.css", "text/css"],
    };
    if (url.pathname === "/app.js") {
      return request.respond({ body: app, contentType: "text/javascript" });
    }
    if (url.pathname in file) {
      const [name, type] = file[url.pathname];
      return request.respond({
        body: await Deno.readTextFile(new URL(name, WEB)),
        contentType: type,
      });
    }
    if (url.pathname === "/api/turns/t1/events") {
      const r = events(request.headers()["last-event-id"]);
      const status = r.status ?? 200;
      return request.respond({
        status,
        body: r.body,
        contentType: status === 200 ? "text/event-stream" : "application/json",
      });
    }
    if (other !== undefined && await other(request)) return;
    return request.respond({ status: 404, body: "{}", contentType: "application/json" });
  });
}

const HOSTILE = `<img src=x onerror="globalThis.__pwned=1">`;

/** A synthetic v1 turn whose every model string is hostile-looking markup. */
function hostileStream(): string {
  const report = serializeReportTag({
    title: HOSTILE,
    plans: [{ title: HOSTILE, summary: HOSTILE, items: [{ text: HOSTILE, status: "done" }] }],
  })!;
  const ask = serializeAskTag({
    question: HOSTILE,
    options: [{ id: "a", label: HOSTILE }],
    refs: [HOSTILE],
  })!;
  const text =
    `Before ${HOSTILE} ${report} middle ${ask} after <script>globalThis.__pwned=2</script>`;
  const events: ChatEventV1[] = [];
  for (let i = 0; i < text.length; i += 5) {
    events.push({ type: "delta", text: text.slice(i, i + 5) });
  }
  events.push(
    { type: "tool_call", callId: "k1", name: "lookup", input: { q: HOSTILE } },
    { type: "tool_progress", callId: "k1", message: HOSTILE, progress: 0.5 },
    { type: "tool_result", callId: "k1", name: "lookup", ok: true, summary: HOSTILE },
    {
      type: "card",
      card: {
        correlationId: "card-1",
        createdAt: 1,
        prompt: HOSTILE,
        details: HOSTILE,
        presentation: { kind: "radio", options: [{ id: "a", label: HOSTILE }] },
      },
    },
    { type: "card_closed", correlationId: "card-1", resolution: "submitted" },
    { type: "delta", text: HOSTILE },
    { type: "done", stopReason: "complete" },
  );
  return framesOf(events);
}

/** SSE frames of `events` as turn t1 of conversation c1, seq 1…n, ids `t1:<seq>`. */
function framesOf(events: ChatEventV1[]): string {
  return events.map((event, i) =>
    encodeChatEnvelopeFrame({
      schemaVersion: 1,
      conversationId: "c1",
      turnId: "t1",
      eventId: `t1:${i + 1}`,
      seq: i + 1,
      event,
    })
  ).join("");
}

Deno.test({
  name:
    "browser: hostile model strings (blocks, tool fields, card) render as text; no element is created from them",
  ignore: skip,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const app = await bundleApp();
    const session = await launchBrowser();
    try {
      const { page } = session;
      await installDomSampler(page);
      await serveSynthetic(page, app, () => ({ body: hostileStream() }));
      await page.goto("http://chat.test/?conversation=c1&turn=t1");
      await page.waitForSelector("#turn[data-status='completed']", { timeout: GIVE_UP_MS });
      const seen = await page.evaluate(() => ({
        pwned: (globalThis as { __pwned?: number }).__pwned,
        elements: document.querySelectorAll("#timeline img, #timeline script, body img").length,
        reportTitle: document.querySelector(".report-title")?.textContent,
        planSummary: document.querySelector(".plan-summary")?.textContent,
        item: document.querySelector(".items .item-text")?.textContent,
        question: document.querySelector(".ask-question")?.textContent,
        option: document.querySelector(".ask-option")?.textContent,
        toolInput: document.querySelector(".tool-input")?.textContent,
        toolDetail: document.querySelector(".tool-output")?.textContent,
        cardPrompt: document.querySelector(".card-prompt")?.textContent,
        cardOption: document.querySelector("form.card label span")?.textContent,
        card: document.querySelector("form.card")?.dataset.state,
        text: [...document.querySelectorAll("#timeline .text")].map((e) => e.textContent).join("|"),
      }));
      assert.equal(seen.pwned, undefined, "model markup ran");
      assert.equal(seen.elements, 0, "an element was created from model text");
      for (
        const k of [
          "reportTitle",
          "planSummary",
          "item",
          "question",
          "option",
          "toolDetail",
          "cardPrompt",
          "cardOption",
        ] as const
      ) assert.equal(seen[k], HOSTILE, k);
      assert.equal(seen.toolInput, JSON.stringify({ q: HOSTILE }));
      assert.equal(seen.card, "answered");
      assert.equal(
        seen.text,
        `Before ${HOSTILE} | middle | after <script>globalThis.__pwned=2</script>|${HOSTILE}`,
      );
      assert.deepEqual((await readDomSamples(page)).bad, []);
    } finally {
      await session.close();
    }
  },
});

Deno.test({
  name:
    "browser: a Last-Event-ID the host refuses (stale-cursor) makes the page render the turn again from its start, once, without duplicating it",
  ignore: skip,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const app = await bundleApp();
    const session = await launchBrowser();
    try {
      const { page } = session;
      const text = 'One, <report>{"title":"R","plans":[{"title":"P"}]}</report> two, three.';
      const events: ChatEventV1[] = [];
      for (let i = 0; i < text.length; i += 4) {
        events.push({ type: "delta", text: text.slice(i, i + 4) });
      }
      events.push({ type: "done", stopReason: "complete" });
      const all = framesOf(events);
      const frames = all.split("\n\n").filter((f) => f !== "").map((f) => f + "\n\n");
      const asked: (string | null)[] = [];
      await serveSynthetic(page, app, (lastEventId) => {
        asked.push(lastEventId ?? null);
        // 1st: the first 5 events, then the stream ends (a dropped connection);
        // 2nd (Last-Event-ID t1:5): refused as stale; 3rd (none): the whole turn.
        if (asked.length === 1) return { body: frames.slice(0, 5).join("") };
        if (lastEventId !== undefined) {
          return {
            status: 410,
            body: JSON.stringify({ error: { code: "stale-cursor", message: "retention" } }),
          };
        }
        return { body: all };
      });
      await page.goto("http://chat.test/?conversation=c1&turn=t1");
      await page.waitForSelector("#turn[data-status='completed']", { timeout: GIVE_UP_MS });
      assert.deepEqual(asked, [null, "t1:5", null]);
      assert.equal(await streamedText(page), "One, \u241e two, three.");
      assert.equal(await page.$$eval("#timeline .report", (r) => r.length), 1);
      assert.equal(await page.$eval("#problems", (e) => e.textContent), "");
    } finally {
      await session.close();
    }
  },
});

Deno.test({
  name:
    "browser: a block cut off by a cancel shows as an 'Unreadable … block (unclosed)' element with its raw text, never as prose",
  ignore: skip,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const app = await bundleApp();
    const session = await launchBrowser();
    try {
      const { page } = session;
      const body = framesOf([
        { type: "delta", text: "Hi " },
        { type: "delta", text: '<report>{"title":"Ref' },
        { type: "delta", text: 'und <b>x</b>"' },
        { type: "turn_status", status: "cancelled", reason: "cancelled by the user" },
      ]);
      await serveSynthetic(page, app, () => ({ body }));
      await page.goto("http://chat.test/?conversation=c1&turn=t1");
      await page.waitForSelector("#turn[data-status='cancelled']", { timeout: GIVE_UP_MS });
      const seen = await page.evaluate(() => ({
        text: [...document.querySelectorAll("#timeline .text")].map((e) => e.textContent),
        invalid: [...document.querySelectorAll("#timeline .block.invalid")].map((e) => [
          e.querySelector("summary")?.textContent,
          e.querySelector("pre")?.textContent,
        ]),
      }));
      assert.deepEqual(seen.text, ["Hi "]);
      assert.deepEqual(seen.invalid, [[
        "Unreadable report block (unclosed)",
        '<report>{"title":"Refund <b>x</b>"',
      ]]);
    } finally {
      await session.close();
    }
  },
});

Deno.test({
  name:
    "browser: a turn whose history is no longer retained (stale-cursor without a cursor) shows that state: badge not Running, Cancel disabled",
  ignore: skip,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const app = await bundleApp();
    const session = await launchBrowser();
    try {
      const { page } = session;
      await serveSynthetic(page, app, () => ({
        status: 410,
        body: JSON.stringify({
          error: { code: "stale-cursor", message: "the events were trimmed" },
        }),
      }));
      await page.goto("http://chat.test/?conversation=c1&turn=t1");
      await page.waitForSelector("#turn[data-status='unavailable']", { timeout: GIVE_UP_MS });
      const seen = await page.evaluate(() => ({
        status: document.querySelector("#status")?.textContent,
        cancel: (document.querySelector("#cancel") as unknown as { disabled: boolean }).disabled,
        conn: document.querySelector("#conn")?.dataset.state,
        problems: document.querySelector("#problems")?.textContent,
      }));
      assert.equal(seen.status, "History no longer retained");
      assert.equal(seen.cancel, true);
      assert.equal(seen.conn, "closed");
      assert.match(seen.problems ?? "", /no longer retained/);
    } finally {
      await session.close();
    }
  },
});

Deno.test({
  name:
    "browser: a cancel refused after the turn completed meanwhile leaves the Cancel button disabled",
  ignore: skip,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const app = await bundleApp();
    const session = await launchBrowser();
    try {
      const { page } = session;
      const frames = framesOf([
        { type: "delta", text: "Hello " },
        { type: "delta", text: "there." },
        { type: "done", stopReason: "complete" },
      ]).split("\n\n").filter((f) => f !== "").map((f) => f + "\n\n");
      // 1st connection: the first event, then the stream ends; the page
      // reconnects (503 until the cancel was clicked) and gets the rest
      let connections = 0;
      let clicked = false;
      let cancelAsked!: () => void;
      const cancelled = new Promise<void>((r) => cancelAsked = r);
      let completed!: () => void;
      const done = new Promise<void>((r) => completed = r);
      await serveSynthetic(page, app, () => {
        connections++;
        if (connections === 1) return { body: frames[0] };
        if (!clicked) return { status: 503, body: "{}" };
        return { body: frames.slice(1).join("") };
      }, async (request) => {
        if (new URL(request.url()).pathname !== "/api/turns/t1/cancel") return false;
        clicked = true;
        cancelAsked();
        await done;
        await request.respond({
          status: 409,
          body: JSON.stringify({
            error: { code: "turn-not-running", message: "the turn has ended" },
          }),
          contentType: "application/json",
        });
        return true;
      });
      await page.goto("http://chat.test/?conversation=c1&turn=t1");
      await page.waitForSelector("#timeline[data-last-seq='1']", { timeout: GIVE_UP_MS });
      await page.click("#cancel");
      await cancelled;
      await page.waitForSelector("#turn[data-status='completed']", { timeout: GIVE_UP_MS });
      completed();
      await page.waitForFunction(
        () => (document.querySelector("#problems")?.textContent ?? "").includes("Cancel refused"),
        { timeout: GIVE_UP_MS },
      );
      const disabled = await page.evaluate(() =>
        (document.querySelector("#cancel") as unknown as { disabled: boolean }).disabled
      );
      assert.equal(disabled, true, "Cancel is enabled next to Completed");
    } finally {
      await session.close();
    }
  },
});

/**
 * The headline proof of the reference host: a turn survives two server
 * crashes in a real browser.
 *
 * An uninterrupted run gives the reference page. Then, on a fresh data
 * directory, the page starts the same turn; the host is SIGKILLed while the
 * text streams and restarted on the same port and data directory, and the
 * page reconnects by itself with `Last-Event-ID`; the card is answered in the
 * page; the host is SIGKILLed again while a tool effect runs (after its
 * `effect started` line) and restarted. The final page equals the reference
 * (no duplicated or lost text), no DOM sample (every 20 ms) ever showed a
 * block tag or a partial one, `/api/ledger` holds each side effect exactly
 * once, the card stays answered (also after a reload), and the time from each
 * restart to the page's next rendered event is printed. The final page is
 * saved as `test-artifacts/chat_host_final.png`.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
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
import { type HostProcess, startHost } from "./_host_process.ts";

/** Every wait below is a give-up bound only (a busy machine makes the page slower, never wrong). */
const GIVE_UP_MS = 120_000;

declare const document: PageDocument;

const skip = announceSkip(chromiumMissing());
const PROMPT = "My desk lamp arrived broken, can I get a refund?";
const SCREENSHOT = new URL("../../test-artifacts/chat_host_final.png", import.meta.url);
/** Slow enough text that a kill lands mid-stream; effects long enough to kill inside. */
const HOST = { deltaMs: 15, effectMs: 400 } as const;

/** The page's turn id (from the address the page set after starting the turn). */
function turnIdOf(page: Page): string {
  const id = new URL(page.url()).searchParams.get("turn");
  assert.ok(id, "the page did not put the turn in its address");
  return id;
}

/** The rendered turn as text, with the turn id (which differs between runs) masked. */
async function transcript(page: Page, turnId: string): Promise<string> {
  const text = await page.$eval("#timeline", (e) => (e as unknown as PageElement).innerText);
  return text.replaceAll(turnId, "<turn>").replaceAll(turnId.slice(-8), "<turn8>");
}

async function startTurn(page: Page, host: HostProcess): Promise<string> {
  await page.goto(host.url);
  await page.type("#prompt-input", PROMPT);
  await page.click("#send");
  await page.waitForFunction(() => new URL(location.href).searchParams.has("turn"), {
    timeout: GIVE_UP_MS,
  });
  return turnIdOf(page);
}

async function answerCard(page: Page): Promise<void> {
  await page.waitForSelector("form.card[data-state='open']", { timeout: GIVE_UP_MS });
  await page.$eval(
    "form.card button[value='submit']",
    (b) => (b as unknown as PageElement).click(),
  );
  await page.waitForSelector("form.card[data-state='answered']", { timeout: GIVE_UP_MS });
}

async function waitCompleted(page: Page): Promise<void> {
  await page.waitForSelector("#turn[data-status='completed']", { timeout: GIVE_UP_MS });
  await page.waitForSelector("#conn[data-state='closed']", { timeout: GIVE_UP_MS });
}

/** Epoch ms of the page's last rendered event. */
function lastEventAt(page: Page): Promise<number> {
  return page.$eval(
    "#timeline",
    (e) => Number((e as unknown as PageElement).dataset.lastEventAt ?? 0),
  );
}

/** Kill the host, wait `downMs`, restart it; ms from the restart to the page's next rendered event. */
async function crashAndResume(
  page: Page,
  host: HostProcess,
  downMs: number,
): Promise<{ attempt: number; live: number; event: number }> {
  await host.kill("SIGKILL");
  await page.waitForSelector("#conn[data-state='reconnecting']", { timeout: GIVE_UP_MS });
  await new Promise((r) => setTimeout(r, downMs));
  await host.restart();
  const listening = Date.now();
  await page.waitForSelector("#conn[data-state='live']", { timeout: GIVE_UP_MS });
  const [since, attemptAt] = await page.$eval("#conn", (e) => [
    Number((e as unknown as PageElement).dataset.since),
    Number((e as unknown as PageElement).dataset.attemptAt),
  ]);
  const live = since - listening;
  const attempt = attemptAt - listening;
  await page.waitForFunction(
    (t: number) => Number(document.getElementById("timeline")?.dataset.lastEventAt ?? 0) > t,
    { timeout: GIVE_UP_MS, polling: 10 },
    listening,
  );
  return { attempt, live, event: (await lastEventAt(page)) - listening };
}

/** The ledger rows of `turnId`, read as the page's user (the `uid` cookie): the ledger shows only the caller's turns. */
async function ledgerOf(host: HostProcess, page: Page, turnId: string) {
  const uid = (await page.cookies(host.url)).find((c) => c.name === "uid")?.value;
  assert.ok(uid !== undefined, "the page has no uid cookie");
  const res = await fetch(new URL("/api/ledger", host.url), {
    headers: { "x-user-id": uid },
  });
  assert.equal(res.status, 200);
  const body = await res.json() as {
    effects: { key: string; toolName: string; turnId: string }[];
  };
  return body.effects.filter((e) => e.turnId === turnId);
}

Deno.test({
  name:
    "browser crash: SIGKILL while text streams and while a tool effect runs; the page resumes by itself and ends equal to an uninterrupted run, effects once, card answered",
  ignore: skip,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const session = await launchBrowser();
    const hosts: HostProcess[] = [];
    try {
      const { browser } = session;

      // 1. The reference: the same turn, uninterrupted.
      const refHost = await startHost(HOST); // a fresh copy of a migrated template
      hosts.push(refHost);
      const refContext = await browser.createBrowserContext();
      const refPage = await refContext.newPage();
      await refPage.setViewport({ width: 1000, height: 900 });
      const refTurn = await startTurn(refPage, refHost);
      await answerCard(refPage);
      await waitCompleted(refPage);
      const reference = await transcript(refPage, refTurn);
      const referenceText = await streamedText(refPage);
      await refContext.close();
      await refHost.stop();

      // 2. The crash run, on a fresh data directory.
      const host = await startHost(HOST); // a fresh data directory again
      hosts.push(host);
      const page = session.page;
      const pageErrors: string[] = [];
      page.on("pageerror", (e) => pageErrors.push(String(e)));
      await installDomSampler(page);
      const turnId = await startTurn(page, host);

      // Crash 1: while the opening text streams.
      await page.waitForFunction(
        () => (document.querySelector("#timeline .text")?.textContent ?? "").length >= 30,
        { timeout: GIVE_UP_MS, polling: 5 },
      );
      const shownAtKill1 = await streamedText(page);
      const resume1 = await crashAndResume(page, host, 300);
      assert.ok(
        referenceText.startsWith(shownAtKill1) && shownAtKill1.length < referenceText.length,
        `the first kill did not land while text streamed: ${JSON.stringify(shownAtKill1)}`,
      );

      // The card is answered in the page; then crash 2: inside the second tool's effect.
      await answerCard(page);
      const fromLine = host.stdoutLines.length;
      await host.waitForLine(`effect started issue_refund ${turnId}`, {
        timeoutMs: GIVE_UP_MS,
        fromLine: 0,
      });
      assert.ok(
        !host.stdoutLines.slice(fromLine).some((l) =>
          l.startsWith(`effect finished issue_refund ${turnId}`)
        ),
        "the effect finished before the kill",
      );
      const resume2 = await crashAndResume(page, host, 300);
      assert.equal(
        await page.$eval("form.card", (f) => (f as unknown as PageElement).dataset.state),
        "answered",
        "the card answered before the crash is not shown answered",
      );
      await waitCompleted(page);
      await new Promise((r) => setTimeout(r, 100)); // one more sample of the final page

      // The final page equals the uninterrupted run's.
      assert.equal(await streamedText(page), referenceText, "streamed text differs");
      assert.equal(await transcript(page, turnId), reference, "the page differs");
      assert.equal(await page.$eval("#problems", (e) => e.textContent), "");
      assert.deepEqual(pageErrors, []);

      const samples = await readDomSamples(page);
      assert.deepEqual(samples.bad, [], "a block tag or a partial tag was visible");
      for (const t of samples.texts) {
        assert.ok(referenceText.startsWith(t), `a sampled text is not a prefix: ${t}`);
      }
      assert.ok(samples.conn.includes("reconnecting"), `conn states: ${samples.conn}`);

      // Each side effect exactly once; both ran through the crash.
      const effects = await ledgerOf(host, page, turnId);
      assert.deepEqual(effects.map((e) => e.toolName).sort(), ["issue_refund", "lookup_order"]);
      assert.equal(new Set(effects.map((e) => e.key)).size, effects.length);

      await Deno.mkdir(new URL(".", SCREENSHOT), { recursive: true });
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewport({ width: 1000, height: Math.min(4000, height) });
      await page.screenshot({ path: SCREENSHOT.pathname as `${string}.png` });

      // A reload replays the turn: the same page, the card still answered.
      await page.reload();
      await waitCompleted(page);
      await page.waitForSelector("form.card[data-state='answered']", { timeout: GIVE_UP_MS });
      assert.equal(await transcript(page, turnId), reference);

      console.log(
        `  ms after the restarted host listened, page's successful attempt sent / stream open / next event rendered: ` +
          `${resume1.attempt} / ${resume1.live} / ${resume1.event} (killed while text streamed), ` +
          `${resume2.attempt} / ${resume2.live} / ${resume2.event} (killed inside an effect); ` +
          `${samples.count} DOM samples, ${samples.texts.length} distinct texts, 0 with a tag; ` +
          `ledger: ${effects.length} effects; connection: ${samples.conn.join(" → ")}`,
      );
    } finally {
      await session.close();
      for (const h of hosts) await h.stop();
    }
  },
});

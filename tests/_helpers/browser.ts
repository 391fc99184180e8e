/**
 * Headless Chromium for the browser tests: Debian's `chromium` at
 * {@link CHROMIUM_PATH}, driven by `puppeteer-core` over the DevTools protocol (no
 * browser download). `.ci/run` installs the package when it is
 * missing, so in CI the browser tests always run; locally they are skipped
 * with a printed reason when the binary is absent ({@link chromiumMissing}).
 *
 * @module
 */
import puppeteer, { type Browser, type Page } from "puppeteer-core";

/**
 * The little of the DOM that the tests' page callbacks (`page.evaluate`,
 * `$eval`, `waitForFunction`) use. Typed here so the tests need not load
 * TypeScript's DOM library, whose stream types clash with Deno's in the one
 * program `deno check` builds for the whole repository. A test file declares
 * `declare const document: PageDocument;` (no runtime code: the callbacks run
 * in the browser).
 */
export interface PageElement {
  /** The node's text. */
  textContent: string | null;
  /** The rendered text (line breaks as laid out). */
  readonly innerText: string;
  /** `data-*` attributes. */
  readonly dataset: Record<string, string | undefined>;
  /** First descendant matching `selector`, or null. */
  querySelector(selector: string): PageElement | null;
  /** Every descendant matching `selector`. */
  querySelectorAll(selector: string): Iterable<PageElement> & { readonly length: number };
  /** Clicks it (runs the page's own handlers, e.g. a form submit). */
  click(): void;
}

/** The document of {@link PageElement}'s callbacks. */
export interface PageDocument {
  /** The element with this id, or null. */
  getElementById(id: string): PageElement | null;
  /** First element matching `selector`, or null. */
  querySelector(selector: string): PageElement | null;
  /** Every element matching `selector`. */
  querySelectorAll(selector: string): Iterable<PageElement> & { readonly length: number };
  /** The root element's scroll height (CSS pixels). */
  readonly documentElement: { readonly scrollHeight: number };
}

declare const document: PageDocument;

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * Flags for a quiet, reproducible headless run as root in a container: no
 * sandbox (root), `/tmp` instead of a small `/dev/shm`, no background
 * network, component updates or first-run UI.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/**
 * Why the browser tests cannot run here, or `null` when they can: the reason
 * names the missing binary and how to install it. In CI (`CI=true`) the
 * binary is required, so a missing one is `null` here and the launch fails
 * loudly instead of skipping.
 */
export function chromiumMissing(): string | null {
  try {
    if (Deno.statSync(CHROMIUM_PATH).isFile) return null;
  } catch {
    // absent: fall through
  }
  if (Deno.env.get("CI") === "true") return null;
  return `${CHROMIUM_PATH} is missing (apt-get install -y chromium): browser tests skipped`;
}

/** A launched browser with one page; {@link BrowserSession.close} ends both. */
export interface BrowserSession {
  /** The browser process (puppeteer-core). */
  readonly browser: Browser;
  /** A fresh page in its own context (its own cookies). */
  readonly page: Page;
  /** Closes the page, its context and the browser process; idempotent. */
  close(): Promise<void>;
}

/**
 * Launches {@link CHROMIUM_PATH} headless with {@link CHROMIUM_ARGS} and opens
 * a page of `width` × `height` CSS pixels (default 1000 × 900). Throws
 * puppeteer's launch error when the binary cannot start.
 */
export async function launchBrowser(
  options: { width?: number; height?: number } = {},
): Promise<BrowserSession> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    defaultViewport: { width: options.width ?? 1000, height: options.height ?? 900 },
  });
  let closed = false;
  try {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    return {
      browser,
      page,
      async close() {
        if (closed) return;
        closed = true;
        await context.close().catch(() => {});
        await browser.close().catch(() => {});
      },
    };
  } catch (e) {
    await browser.close().catch(() => {});
    throw e;
  }
}

/** Prints a skip reason once per test file, so a skipped browser test is visible in the log. */
export function announceSkip(reason: string | null): boolean {
  if (reason !== null) console.log(`[browser tests] ${reason}`);
  return reason !== null;
}

/**
 * Installs, in every document the page loads, a sampler that reads the chat
 * page's `#timeline` every `everyMs` (default 20) and records in
 * `window.__domSamples`: `count` (samples taken), `bad` (samples that showed a
 * `<report` / `<ask` / `</report` / `</ask` anywhere, or a text paragraph
 * ending in a fragment that could still become one: `<`, `<a`, `<rep`, …),
 * and `texts` (each distinct value of the streamed text paragraphs joined by
 * U+241E, in order: every one must be a prefix of the final text) and
 * `conn` (each change of the connection indicator's `data-state`).
 */
export async function installDomSampler(page: Page, everyMs = 20): Promise<void> {
  await page.evaluateOnNewDocument((ms: number) => {
    const TAG = /<\/?(?:ask|report)/i;
    const TRAIL = /<(?:a(?:s(?:k)?)?|r(?:e(?:p(?:o(?:r(?:t)?)?)?)?)?)?$/i;
    const s = {
      count: 0,
      bad: [] as string[],
      texts: [] as string[],
      conn: [] as string[],
      connAt: [] as number[],
    };
    (globalThis as unknown as { __domSamples: typeof s }).__domSamples = s;
    setInterval(() => {
      const tl = document.getElementById("timeline");
      if (tl === null) return;
      s.count++;
      const all = tl.textContent ?? "";
      if (TAG.test(all)) {
        s.bad.push(`tag: …${all.slice(Math.max(0, all.search(TAG) - 20), all.search(TAG) + 30)}…`);
      }
      const paras = [...tl.querySelectorAll(".text")].map((e) => e.textContent ?? "");
      for (const p of paras) {
        if (TRAIL.test(p)) s.bad.push(`partial tag at the end of: …${p.slice(-30)}`);
      }
      const text = paras.join("\u241e");
      if (text !== s.texts[s.texts.length - 1]) s.texts.push(text);
      const conn = document.getElementById("conn")?.dataset.state ?? "";
      if (conn !== s.conn[s.conn.length - 1]) {
        s.conn.push(conn);
        s.connAt.push(Date.now());
      }
    }, ms);
  }, everyMs);
}

/** What {@link installDomSampler} recorded so far. */
export interface DomSamples {
  /** Samples taken. */
  count: number;
  /** Violations (a full or partial block tag seen), with the text around them. */
  bad: string[];
  /** Each distinct streamed text (paragraphs joined by U+241E), in order. */
  texts: string[];
  /** The connection indicator's states (`#conn[data-state]`), each change in order. */
  conn: string[];
  /** When each change of `conn` was sampled (epoch ms). */
  connAt: number[];
}

/** Reads the sampler's record from the current document. */
export function readDomSamples(page: Page): Promise<DomSamples> {
  return page.evaluate(() => (globalThis as unknown as { __domSamples: DomSamples }).__domSamples);
}

/** The streamed text paragraphs of the chat page, joined by U+241E (as the sampler records). */
export function streamedText(page: Page): Promise<string> {
  return page.evaluate(() =>
    [...document.querySelectorAll("#timeline .text")].map((e) => e.textContent ?? "").join("\u241e")
  );
}

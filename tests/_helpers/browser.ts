/**
 * Headless Chromium for the browser tests: Debian's `chromium` at
 * {@link CHROMIUM_PATH}, driven by `playwright-core` over its pipe (no
 * browser download, no port). `.ci/run` installs the package when it is
 * missing, so in CI the browser tests always run; locally they are skipped
 * with a printed reason when the binary is absent ({@link chromiumMissing}).
 *
 * @module
 */
import { type Browser, chromium, type Page } from "playwright-core";

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
  /** The browser process (playwright-core). */
  readonly browser: Browser;
  /** A fresh page in its own context (its own cookies). */
  readonly page: Page;
  /** Closes the page, its context and the browser process; idempotent. */
  close(): Promise<void>;
}

/**
 * Launches {@link CHROMIUM_PATH} headless with {@link CHROMIUM_ARGS} and opens
 * a page of `width` × `height` CSS pixels (default 1000 × 900). Throws
 * playwright's launch error when the binary cannot start.
 */
export async function launchBrowser(
  options: { width?: number; height?: number } = {},
): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
  let closed = false;
  try {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1000, height: options.height ?? 900 },
    });
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

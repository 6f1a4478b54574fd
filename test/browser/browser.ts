// Browser tests drive Debian's Chromium through playwright-core (no downloaded browser): one
// browser per vitest worker, shared by the test files it runs, and a fresh context (own profile
// state, own cookies, own localStorage) per test. Every request to anything but the simulator's
// loopback origin (and the few loopback origins a test serves itself, such as a shop's page) is
// remembered, so a page that reached for a CDN or phoned home fails its test instead of passing on a
// machine with network; and no host resolves but this machine's own addresses (Chromium's
// --host-resolver-rules), so such a request never leaves the machine. The requests are watched, not
// intercepted: pausing each one in the browser to let it go from here cost some 10 s of CPU over the
// browser tests, Chromium's and this process's (offline-guard.test.ts holds the guard to its word).

import { mkdirSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Harness } from '../support/harness.ts';

/** Installed by `.ci/run` (`apt-get install -y chromium`). */
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = fileURLToPath(new URL('../../output/screenshots/', import.meta.url));

/** This machine's IPv4 addresses, loopback's and its interfaces' (a test may open the dashboard by its LAN address). */
const ownAddresses = () => [
  ...new Set(['127.0.0.1', ...Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).filter((entry) => entry.family === 'IPv4').map((entry) => entry.address))]),
];

/** playwright's launch() gives the browser a fresh temporary user-data-dir, removed on close. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Every host fails to resolve but this machine's own addresses, where the simulator and a test's
      // own servers listen (an IP address goes through the rules too).
      `--host-resolver-rules=MAP * ~NOTFOUND, ${ownAddresses().map((address) => `EXCLUDE ${address}`).join(', ')}`,
      // One renderer per context, without the spare one Chromium starts ahead of the next page: each
      // test's context is new, and the spare was never used (some 50 renderer processes of 100).
      '--renderer-process-limit=1',
    ],
  });
}

export interface TestPage {
  page: Page;
  /** URLs the page tried to reach outside the simulator (a host name there does not resolve). */
  blocked: string[];
  close(): Promise<void>;
}

/** `allowed`: origins beside the simulator's that the page may reach, each one a test serves itself. */
export async function openPage(browser: Browser, origin: string, allowed: readonly string[] = []): Promise<TestPage> {
  const origins = [origin, ...allowed];
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-GB', timezoneId: 'UTC' });
  const blocked: string[] = [];
  context.on('request', (request) => {
    const url = request.url();
    if (!origins.some((reachable) => url.startsWith(`${reachable}/`)) && !url.startsWith('data:')) blocked.push(url);
  });
  const page = await context.newPage();
  // A guard against a hang, below the test's own 60 s: Swagger UI's first render took over 5 s on a loaded machine.
  page.setDefaultTimeout(15_000);
  return { page, blocked, close: () => context.close() };
}

/** A PNG in output/screenshots/ (git-ignored) for a person to look at: the full page, or one element of it. */
export async function screenshot(page: Page, name: string, element?: Locator): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}${name}.png`;
  await (element ? element.screenshot({ path }) : page.screenshot({ path, fullPage: true }));
}

const LAUNCH_TIMEOUT_MS = 60_000;

let shared: Promise<Browser> | undefined;
let exitOnSigterm = false;

/**
 * The Chromium of this vitest worker, launched by the first test file that asks and kept for the files
 * after it: a worker runs its files one after another in one module graph (vitest.config.ts, `isolate:
 * false`), and a launch and close of Chromium for each file cost CPU: the 12 browser files took 83-91 s
 * of CPU with a browser each, 45-70 s with one per worker (3 workers; issue 44). Tests share nothing
 * through it: each test's page has a context of its own. The browser goes with the worker: playwright
 * kills it and removes its temporary profile when the process exits, and vitest stops a worker with
 * SIGTERM, which is turned into such an exit here (as vitest's own worker does when profiling) instead
 * of a death by signal that would leave the profile behind in /tmp.
 */
export function sharedBrowser(): Promise<Browser> {
  if (!shared) {
    const launching = launchBrowser();
    shared = launching;
    launching.then(
      (browser) => browser.on('disconnected', () => shared === launching && (shared = undefined)),
      () => shared === launching && (shared = undefined),
    );
    if (!exitOnSigterm) process.once('SIGTERM', () => process.exit(143));
    exitOnSigterm = true;
  }
  return shared;
}

/**
 * The browser of a test file (the worker's, see sharedBrowser); `open()` gives a fresh page on the harness,
 * `open(shop)` one that may also reach the test's own server at that origin. A page a test left open is
 * closed after the file's tests.
 */
export function useBrowser(h: Harness): { open(...allowed: string[]): Promise<TestPage> } {
  let browser: Browser | undefined;
  const open = new Set<TestPage>();
  // Chromium starts in a second or two, but on a 2-core machine busy with the other test files it once
  // took longer than the 10 s hooks get by default.
  beforeAll(async () => {
    browser = await sharedBrowser();
  }, LAUNCH_TIMEOUT_MS);
  afterAll(() => Promise.all([...open].map((page) => page.close())));
  return {
    async open(...allowed) {
      const page = await openPage(browser!, h.origin, allowed);
      open.add(page);
      return {
        ...page,
        close: () => {
          open.delete(page);
          return page.close();
        },
      };
    },
  };
}

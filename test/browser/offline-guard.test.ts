// The guard every browser test relies on (browser.ts): a page that reaches for anything but the
// simulator (a CDN, a font, an analytics beacon, another local server) has the request remembered in
// `blocked`, which each test asserts empty, and a host name never resolves, so nothing leaves the machine.
// If the guard let a request through unseen, a page that needs the network would pass here and break
// for a user offline.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../support/harness.ts';
import { useBrowser } from './browser.ts';

const h = useHarness();
const browser = useBrowser(h);

/** Another local server, which no test page is allowed to reach unless the test names it. */
let other: Server;
let otherOrigin = '';
/** The requests that reached it. */
const reached: string[] = [];
beforeAll(async () => {
  other = createServer((req, res) => {
    reached.push(req.url ?? '');
    res.end('other');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

describe('the browser tests are offline', () => {
  it('a request to a host name, to an address outside, or to a local server the test did not name is remembered; a host name does not resolve, localhost neither', async () => {
    const { page, blocked, close } = await browser.open();
    const failures: string[] = [];
    page.on('requestfailed', (request) => failures.push(`${request.url()} ${request.failure()?.errorText}`));
    try {
      await page.goto(`${h.origin}/`);
      const cdn = 'https://cdn.jsdelivr.net/npm/swagger-ui-dist/swagger-ui.css';
      // localhost resolves without any network: only the browser's rule keeps it from the other server.
      const local = `${otherOrigin.replace('127.0.0.1', 'localhost')}/from-localhost`;
      const fetched = await page.evaluate(
        (urls) =>
          Promise.all(
            urls.map((url) =>
              fetch(url, { mode: 'no-cors' }).then(
                () => 'answered',
                (error: unknown) => `failed: ${String(error)}`,
              ),
            ),
          ),
        [cdn, local],
      );
      expect(fetched).toEqual([expect.stringMatching(/^failed: TypeError/), expect.stringMatching(/^failed: TypeError/)]);
      await expect.poll(() => failures).toContain(`${local} net::ERR_NAME_NOT_RESOLVED`);
      expect(reached).toEqual([]);
      await page.evaluate((urls) => {
        for (const url of urls) {
          const image = document.createElement('img');
          image.src = url;
          document.body.append(image);
        }
      }, ['https://www.google-analytics.com/collect?v=1', `${otherOrigin}/pixel.gif`]);
      await expect.poll(() => [...blocked].sort()).toEqual([cdn, local, 'https://www.google-analytics.com/collect?v=1', `${otherOrigin}/pixel.gif`].sort());
      // The simulator's own requests are not among them: the dashboard loaded its scripts and styles.
      expect(blocked.some((url) => url.startsWith(h.origin))).toBe(false);
    } finally {
      await close();
    }
  });

  it('a local server the test names is reachable, and not remembered', async () => {
    const { page, blocked, close } = await browser.open(otherOrigin);
    try {
      await page.goto(`${otherOrigin}/`);
      expect(await page.textContent('body')).toBe('other');
      expect(reached).toContain('/');
      await page.goto(`${h.origin}/healthz`);
      expect(blocked).toEqual([]);
    } finally {
      await close();
    }
  });
});

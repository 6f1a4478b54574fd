// The API reference at /docs: Swagger UI from swagger-ui-dist, served by the simulator itself (no
// CDN: every request outside the simulator is aborted), listing every operation of openapi.yaml,
// with "Try it out" sending the request to this very server.

import { describe, expect, it } from 'vitest';
import type { OpenAPIV3_1 } from 'openapi-types';
import { HTTP_METHODS, loadSpec } from '../../src/contract/spec.ts';
import { useHarness } from '../support/harness.ts';
import { useBrowser, screenshot } from './browser.ts';

const h = useHarness();
const browser = useBrowser(h);

// Swagger UI lists the document's `webhooks` (what the simulator POSTs to a callback) with the paths.
const spec = loadSpec();
// The document has no `$ref`'d path items: every value is a path item.
const items = [...Object.values(spec.paths ?? {}), ...Object.values(spec.webhooks ?? {})] as OpenAPIV3_1.PathItemObject[];
const operationIds = items.flatMap((item) => HTTP_METHODS.flatMap((method) => item[method]?.operationId ?? []));

describe('API reference at /docs', () => {
  it('lists every operation of openapi.yaml, and "Try it out" on GET /healthz gets a 200 from this server', async () => {
    const { page, blocked, close } = await browser.open();
    try {
      await page.goto(`${h.origin}/docs`);
      await page.locator('.opblock').first().waitFor();
      const shown = await page.locator('.opblock .opblock-summary-operation-id').allTextContents();
      expect([...shown].sort()).toEqual([...operationIds].sort());
      expect(await page.locator('.opblock-summary-description', { hasText: 'List purchases' }).count()).toBe(1);
      // Swagger UI's own warnings and resolver errors show in .errors-wrapper boxes: none.
      expect(await page.locator('.errors-wrapper').allTextContents()).toEqual([]);
      await screenshot(page, 'docs', page.locator('#swagger-ui .information-container'));

      const health = page.locator('.opblock', { has: page.locator('.opblock-summary-operation-id', { hasText: /^getHealth$/ }) });
      await health.locator('.opblock-summary-control').click();
      await health.getByRole('button', { name: 'Try it out' }).click();
      await health.getByRole('button', { name: 'Execute' }).click();
      await health.locator('.live-responses-table tbody .response-col_status').first().waitFor();
      expect((await health.locator('.live-responses-table tbody .response-col_status').first().textContent())?.trim()).toBe('200');
      expect(await health.locator('.request-url').textContent()).toContain(`${h.origin}/healthz`);
      await screenshot(page, 'docs-try-it', health);
      expect(blocked, 'requests outside the simulator').toEqual([]);
    } finally {
      await close();
    }
  });

  it('/docs/openapi.json is openapi.yaml with servers set to the origin the browser called', async () => {
    const response = await fetch(`${h.origin}/docs/openapi.json`);
    const document = (await response.json()) as { openapi: string; servers: { url: string }[] };
    expect(document.openapi).toBe(spec.openapi);
    expect(document.servers.map((server) => server.url)).toEqual([h.origin]);
  });
});

// The readings of openapi.yaml that `npm run build` writes beside dist/openapi.json, which every run of
// the contract suite and every proxy read instead of reading the document into operations again
// (contract-tests/lib/document.ts): they must be exactly what reading the document now gives, and
// never be used for a document other than the one they were read from.

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { builtReading, readOperations } from '../../contract-tests/lib/document.ts';

const dist = (file: string) => fileURLToPath(new URL(`../../dist/${file}`, import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'billing-sim-readings-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the readings the build writes', () => {
  for (const [name, reading] of [['full', {}], ['platform', { platform: true }]] as const) {
    it(`the ${name} reading is the document's operations as Prism reads them now, to the last key`, async () => {
      const built = builtReading(name, dist('openapi.json'), dist(`openapi.${name}-reading.json.gz`));
      expect(built, 'npm run build wrote it').toBeDefined();
      const read = await readOperations(reading);
      expect(built!.map((operation) => operation.iid)).toEqual(read.map((operation) => operation.iid));
      // toEqual would pass an undefined key that JSON drops; the readings must hold no such difference.
      expect(isDeepStrictEqual(built, read)).toBe(true);
    });
  }

  it('are what a test worker reads, from the sources, of the dist/ the global setup built (TESTS_FRESH_DIST): they are of openapi.yaml as it is now', () => {
    expect(process.env.TESTS_FRESH_DIST).toBe(dist(''));
    expect(builtReading('full')).toEqual(builtReading('full', dist('openapi.json'), dist('openapi.full-reading.json.gz')));
  });

  it('are not used for a document changed since the build, by one byte', () => {
    const document = join(work, 'openapi.json');
    copyFileSync(dist('openapi.json'), document);
    expect(builtReading('full', document, dist('openapi.full-reading.json.gz'))).toBeDefined();
    writeFileSync(document, ' ', { flag: 'a' });
    expect(builtReading('full', document, dist('openapi.full-reading.json.gz'))).toBeUndefined();
    expect(builtReading('full', document, join(work, 'none.json'))).toBeUndefined();
  });
});

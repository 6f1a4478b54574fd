// loadSpec keeps what it parsed (src/contract/spec.ts): a process that starts many simulators parses
// openapi.yaml once, yet each caller gets a document of its own, and a file that changed is read anew.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/contract/spec.ts';

const folder = mkdtempSync(join(tmpdir(), 'billing-sim-load-spec-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const documentText = (title: string) => `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: '1'\npaths:\n  /x:\n    get:\n      operationId: getX\n      responses:\n        '200':\n          description: ok\n`;

describe('loadSpec', () => {
  it('answers each call with a document of its own: a change to one reaches neither the next call nor an earlier one', () => {
    const file = join(folder, 'own.yaml');
    writeFileSync(file, documentText('Own'));
    const first = loadSpec(file);
    const second = loadSpec(file);
    const third = loadSpec(file);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(new Set([first, second, third]).size).toBe(3);
    (second.paths as Record<string, unknown>)['/x'] = 'changed';
    second.info.title = 'Changed';
    expect(loadSpec(file).info.title).toBe('Own');
    expect(third.paths!['/x']!.get!.operationId).toBe('getX');
    expect(first.info.title).toBe('Own');
  });

  it('reads a file again when its text has changed, and refuses one that is no OpenAPI 3.1 document every time', () => {
    const file = join(folder, 'changing.yaml');
    writeFileSync(file, documentText('Before'));
    expect(loadSpec(file).info.title).toBe('Before');
    expect(loadSpec(file).info.title).toBe('Before');
    writeFileSync(file, documentText('After'));
    expect(loadSpec(file).info.title).toBe('After');
    writeFileSync(file, 'openapi: 3.0.3\npaths: {}\n');
    expect(() => loadSpec(file)).toThrow(/is not an OpenAPI 3\.1 document/);
    expect(() => loadSpec(file)).toThrow(/is not an OpenAPI 3\.1 document/);
  });

  it('answers the project\'s openapi.yaml the same on every call', () => {
    const first = loadSpec();
    expect(first.openapi).toMatch(/^3\.1/);
    expect(loadSpec()).toEqual(first);
  });
});

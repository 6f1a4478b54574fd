// The layout DESIGN.md §1 and STYLE.md promise, checked on the source files themselves: the store
// sits behind the engine and imports nothing of it (a type or a helper both need lives in domain/
// or in the store's own files, as domain/sandbox-clock.ts does), and no source file passes 400
// lines (STYLE.md 8 and 12: a file that does is split by what it owns).

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** Every file under `folder`, as paths relative to the repository root. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * What a file imports, as the TypeScript compiler reads it: `import … from`, `import type`,
 * `export … from` and `import('…')` alike, so no spelling of an import slips past.
 */
function importSpecifiers(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return importedFiles.map((imported) => imported.fileName);
}

/** Lines as `wc -l` counts them, and a last line without its newline too. */
const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('layout', () => {
  it('no file under src/store imports from src/engine', () => {
    const engine = join(SRC, 'engine') + sep;
    const storeFiles = filesUnder(join(SRC, 'store'));
    expect(storeFiles.length).toBeGreaterThan(5);
    const offending = storeFiles.flatMap((file) =>
      importSpecifiers(file)
        .filter((specifier) => specifier.startsWith('.') && resolve(ROOT, dirname(file), specifier).startsWith(engine))
        .map((specifier) => `${file} imports '${specifier}'`),
    );
    expect(offending).toEqual([]);
  });

  it('no file under src/ passes 400 lines', () => {
    const files = filesUnder(SRC);
    expect(files.length).toBeGreaterThan(50);
    const tooLong = files
      .map((file) => ({ file, lines: lineCount(readFileSync(join(ROOT, file), 'utf8')) }))
      .filter(({ lines }) => lines > 400)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(tooLong).toEqual([]);
  });
});

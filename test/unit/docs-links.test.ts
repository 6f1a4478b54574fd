// The documentation a newcomer reads: README.md (at most 300 lines, read in five minutes) and the pages of
// docs/ it leads to. Every relative link in them must reach a file of the repository, and a link's
// `#anchor` a heading of the page it names, as GitHub makes anchors from headings (github-slugger: lower
// case, every character but letters, digits, `_`, `-` and spaces dropped, spaces to hyphens, a repeated
// heading's anchor suffixed -1, -2, …). A page moved or a heading reworded breaks a link; this finds it.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The page's text without fenced code blocks and inline code, where a `[x](y)` is no link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`+[^`\n]*`+/g, '');
}

/** GitHub's anchor of a heading's text (github-slugger), before any -1, -2 suffix. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors GitHub gives the headings of a page, repeated ones suffixed as it suffixes them. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, text] of withoutCode.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    // A heading's link keeps only its text: `[x](y)` counts as `x`.
    const base = slug(text!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** The relative links of a page (no scheme, no mailto), as written. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map(([, target]) => target!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with each relative link of the page at `path` (relative to `root`); empty when nothing is. */
function brokenLinks(
  root: string,
  path: string,
  read: (file: string) => string = (file) => readFileSync(file, 'utf8'),
  exists: (file: string) => boolean = existsSync,
): string[] {
  const problems: string[] = [];
  for (const link of relativeLinks(read(join(root, path)))) {
    const [target = '', anchor] = link.split('#', 2);
    const file = target === '' ? join(root, path) : join(root, dirname(path), decodeURIComponent(target));
    const name = relative(root, file);
    if (name.startsWith('..')) {
      problems.push(`${path}: ${link} leaves the repository`);
      continue;
    }
    if (!exists(file)) {
      problems.push(`${path}: ${link}: no file ${name}`);
      continue;
    }
    if (anchor !== undefined && file.endsWith('.md') && !anchors(read(file)).has(anchor)) {
      problems.push(`${path}: ${link}: ${name} has no heading with the anchor #${anchor}`);
    }
  }
  return problems;
}

describe('README.md and docs/', () => {
  it('README.md is at most 300 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\n$/, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(300);
  });

  it('every relative link of README.md and docs/*.md reaches a file, and its #anchor a heading there', () => {
    expect(PAGES).toContain('docs/behaviour.md');
    expect(PAGES.flatMap((page) => brokenLinks(ROOT, page))).toEqual([]);
  });

  it('the README links to every page of docs/', () => {
    const linked = new Set(relativeLinks(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((link) => link.split('#')[0]));
    expect(PAGES.filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([]);
  });
});

describe('the link check', () => {
  const pages: Record<string, string> = {
    'README.md': [
      '# Title',
      '## Keeping state (`--data`)',
      "## npm 11: allow better-sqlite3's install script",
      '## Faults',
      '## Faults',
      'See [state](#keeping-state---data), [npm](#npm-11-allow-better-sqlite3s-install-script), [again](#faults-1).',
      'Also [a page](docs/page.md#its-heading) and [the web](https://example.test/#nothing), `[code](nowhere.md)`.',
      '```md',
      '[in a fence](nowhere-either.md)',
      '```',
    ].join('\n'),
    'docs/page.md': '# Its heading\n\nBack to [the README](../README.md#title).\n',
    'docs/bad.md': '# Bad\n\n[gone](gone.md), [no anchor](../README.md#keeping-state--data), [out](../../x.md), [self](#bad-1)\n',
  };
  const root = '/repo';
  const read = (file: string) => {
    const text = pages[relative(root, file)];
    if (text === undefined) throw new Error(`no ${file}`);
    return text;
  };

  it('makes anchors as GitHub does: case, punctuation, spaces, repeated headings', () => {
    expect(slug('Keeping state (`--data`)')).toBe('keeping-state---data');
    expect(slug("npm 11: allow better-sqlite3's install script")).toBe('npm-11-allow-better-sqlite3s-install-script');
    expect(slug('Checking live traffic: `billing-sim proxy`')).toBe('checking-live-traffic-billing-sim-proxy');
    expect([...anchors(pages['README.md']!)]).toEqual(['title', 'keeping-state---data', 'npm-11-allow-better-sqlite3s-install-script', 'faults', 'faults-1']);
  });

  it('finds no fault in good links and skips code and other schemes', () => {
    expect(relativeLinks(pages['README.md']!)).toEqual(['#keeping-state---data', '#npm-11-allow-better-sqlite3s-install-script', '#faults-1', 'docs/page.md#its-heading']);
  });

  it('reports a missing file, a missing anchor and a link out of the repository', () => {
    const existing = new Set(Object.keys(pages).map((page) => join(root, page)));
    // brokenLinks checks existence on disk: give it this in-memory repository's files.
    const problems = brokenLinksIn(existing, root, 'docs/bad.md', read);
    expect(problems).toEqual([
      'docs/bad.md: gone.md: no file docs/gone.md',
      'docs/bad.md: ../README.md#keeping-state--data: README.md has no heading with the anchor #keeping-state--data',
      'docs/bad.md: ../../x.md leaves the repository',
      'docs/bad.md: #bad-1: docs/bad.md has no heading with the anchor #bad-1',
    ]);
    expect(brokenLinksIn(existing, root, 'docs/page.md', read)).toEqual([]);
  });
});

/** brokenLinks over an in-memory set of files instead of the disk. */
function brokenLinksIn(files: Set<string>, root: string, path: string, read: (file: string) => string): string[] {
  return brokenLinks(root, path, read, (file) => files.has(file));
}

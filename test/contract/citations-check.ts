// The checker of the contract suite's citations (grammar in contract-tests/lib/citations.ts):
// `problemsOf(cites)` lists what in one citation does not resolve inside the repository. Used by
// citations.test.ts.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type Node = Record<string, any>;

const REFERENCE = /(docs\/[\w-]+\.md)#([\w-]+)|openapi\.yaml#(\/[^\s;,:"()]+|[A-Za-z]\w*)/g;
const QUOTE = /"([^"]+)"/g;

/** Text as a reader sees it: links as their words, no code or emphasis marks, one space between words. */
const plain = (text: string): string =>
  text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`|\*\*/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** GitHub's anchor of a heading: lower case, punctuation dropped but - and _, spaces as hyphens. */
const slug = (heading: string): string =>
  plain(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The sections of a markdown page by anchor: from its heading to the next heading of its level or above. */
function sections(markdown: string): Map<string, string> {
  const lines = markdown.split('\n');
  const headings = lines.flatMap((line, i) => {
    const match = /^(#{1,6})\s+(.*)$/.exec(line);
    return match ? [{ i, level: match[1]!.length, anchor: slug(match[2]!) }] : [];
  });
  const result = new Map<string, string>();
  for (const [n, heading] of headings.entries()) {
    const end = headings.slice(n + 1).find((next) => next.level <= heading.level)?.i ?? lines.length;
    let anchor = heading.anchor;
    for (let k = 1; result.has(anchor); k += 1) anchor = `${heading.anchor}-${k}`;
    result.set(anchor, plain(lines.slice(heading.i, end).join('\n')));
  }
  return result;
}

/** Every string under a node of the document (descriptions, enums, examples), as one text. */
const strings = (node: unknown): string[] =>
  typeof node === 'string' ? [node] : node && typeof node === 'object' ? Object.values(node).flatMap(strings) : [];

const document: Node = parse(readFileSync(`${ROOT}openapi.yaml`, 'utf8'));
const operations = new Map<string, Node>(
  Object.values(document.paths as Node).flatMap((item: Node) =>
    Object.values(item)
      .filter((operation): operation is Node => typeof operation === 'object' && operation !== null && 'operationId' in operation)
      .map((operation) => [operation.operationId as string, operation] as [string, Node]),
  ),
);

function pointer(path: string): unknown {
  let node: unknown = document;
  for (const part of path.slice(1).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Node)[key];
  }
  return node;
}

const pages = new Map<string, Map<string, string>>();
function page(file: string): Map<string, string> | undefined {
  if (!pages.has(file)) pages.set(file, existsSync(`${ROOT}${file}`) ? sections(readFileSync(`${ROOT}${file}`, 'utf8')) : new Map());
  return pages.get(file);
}

/** What is wrong with one citation; nothing when every reference and quote resolves. */
export function problemsOf(cites: string): string[] {
  const problems: string[] = [];
  const references = [...cites.matchAll(REFERENCE)].map((match) => {
    const [whole, file, anchor, target] = match;
    let text: string | undefined;
    if (file) {
      const sectionsOfPage = page(file)!;
      if (!sectionsOfPage.size) problems.push(`${file} is not a page of the repository`);
      else if (!sectionsOfPage.has(anchor!)) problems.push(`${file} has no heading #${anchor}`);
      else text = sectionsOfPage.get(anchor!);
    } else if (target!.startsWith('/')) {
      const node = pointer(target!);
      if (node === undefined) problems.push(`openapi.yaml has nothing at ${target}`);
      else text = plain(strings(node).join('\n'));
    } else {
      const operation = operations.get(target!);
      if (!operation) problems.push(`openapi.yaml has no operation ${target}`);
      else text = plain(strings(operation).join('\n'));
    }
    return { at: match.index, end: match.index + whole.length, whole, text };
  });
  if (references.length === 0) problems.push('cites nothing in the repository (docs/*.md#anchor or openapi.yaml#…)');

  for (const match of cites.matchAll(QUOTE)) {
    const owner = references.filter((reference) => reference.end <= match.index).at(-1);
    if (!owner) {
      problems.push(`the quote "${match[1]}" follows no reference`);
      continue;
    }
    if (owner.text === undefined) continue;
    let from = 0;
    for (const part of match[1]!.split('…').map(plain).filter(Boolean)) {
      const found = owner.text.indexOf(part, from);
      if (found < 0) {
        problems.push(`"${part}" is not in ${owner.whole}`);
        break;
      }
      from = found + part.length;
    }
  }

  // What is left once the references are taken out must name no other file.
  let rest = cites;
  for (const reference of [...references].reverse()) rest = rest.slice(0, reference.at) + rest.slice(reference.end);
  for (const name of rest.match(/[\w./-]*\.(?:md|ya?ml|json)\b|DESIGN|§/g) ?? []) problems.push(`names "${name}", which is not a place in the repository`);
  return problems;
}

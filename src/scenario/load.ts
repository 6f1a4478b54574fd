// Reads scenario files: YAML (one scenario per document), checked against scenario.schema.json and
// for `${name}` references that no earlier step saves, before anything runs, so that a typo in
// the tenth file stops the run in a second rather than after nine scenarios. A problem is a
// ScenarioError naming the file, the line and the dotted path of the first bad value.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, parseAllDocuments, type Document } from 'yaml';
import { checkScenario } from './schema.ts';
import { referencesIn } from './values.ts';

/** A file that cannot be run as written, or a server that cannot run it: exit 2, one line. */
export class ScenarioError extends Error {}

export const STEP_KINDS = ['request', 'pay', 'advance', 'expect'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** Names every scenario has before its first step. */
export const PREDEFINED_NAMES = ['brand_id', 'sandbox_id'];

export interface Step {
  /** 1-based, as reported. */
  number: number;
  kind: StepKind;
  /** The step as parsed: `{pay: {…}, save: {…}}`. */
  spec: Record<string, unknown>;
  line: number;
  /** The step's text in the file, without its indentation, for the report. */
  source: string;
}

export interface Scenario {
  file: string;
  name: string;
  sandbox: Record<string, unknown>;
  steps: Step[];
}

/** Every scenario of the files and folders given (a folder: its *.yaml and *.yml files, by name), in order. */
export function loadScenarios(paths: string[]): Scenario[] {
  return expand(paths).flatMap(loadFile);
}

function expand(paths: string[]): string[] {
  return paths.flatMap((path) => {
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ScenarioError(code === 'ENOENT' ? `${path}: no such file or folder` : `${path}: cannot be read (${code ?? (error as Error).message})`);
    }
    if (!isFolder) return [path];
    const files = readdirSync(path)
      .filter((name) => /\.ya?ml$/.test(name))
      .sort()
      .map((name) => join(path, name));
    if (files.length === 0) throw new ScenarioError(`${path}: a folder without .yaml or .yml files`);
    return files;
  });
}

function loadFile(file: string): Scenario[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ScenarioError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const lines = new LineCounter();
  const documents = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: true });
  if (!Array.isArray(documents)) throw new ScenarioError(`${file}: no scenario in the file`);
  const scenarios: Scenario[] = [];
  for (const document of documents) {
    const error = document.errors[0];
    if (error) {
      const where = error.linePos?.[0];
      const line = where ? (text.split('\n')[where.line - 1] ?? '') : '';
      // `{purchase: ${first}}`: YAML reads the braces of an unquoted reference as a mapping.
      const hint = /[{[].*\$\{/.test(line) ? ' (inside {…} or […], write a reference in quotes: "${name}")' : '';
      throw new ScenarioError(`${file}:${where ? `${where.line}:${where.col}` : '?'}: not YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}${hint}`);
    }
    // An empty document (a file ending in ---, or only comments) holds no scenario.
    if (document.contents === null) continue;
    scenarios.push(toScenario(file, document, text, lines));
  }
  if (scenarios.length === 0) throw new ScenarioError(`${file}: no scenario in the file`);
  return scenarios;
}

function toScenario(file: string, document: Document, text: string, lines: LineCounter): Scenario {
  const value = document.toJS() as unknown;
  const lineOf = (path: (string | number)[]): number => {
    // A missing key (a required one) has no node: the line of the mapping that lacks it.
    for (let depth = path.length; depth >= 0; depth -= 1) {
      const node = depth === 0 ? document.contents : document.getIn(path.slice(0, depth), true);
      const start = (node as { range?: [number, number, number] } | undefined)?.range?.[0];
      if (start !== undefined) return lines.linePos(start).line;
    }
    return 1;
  };
  // A step is named by its number as the report counts them (from 1), not by its index in `steps` (from 0):
  // `step 2, pay.outcome`, never `steps.1.pay.outcome … (step 2)`.
  const fail = (path: (string | number)[], message: string): never => {
    const inStep = path[0] === 'steps' && typeof path[1] === 'number';
    const rest = path.slice(2).join('.');
    const where = inStep ? `step ${(path[1] as number) + 1}${rest ? `, ${rest}` : ''}` : path.length > 0 ? path.join('.') : 'the scenario';
    throw new ScenarioError(`${file}:${lineOf(path)}: ${where}: ${message}`);
  };

  const problem = checkScenario(value);
  if (problem) fail(problem.path, problem.message);
  const scenario = value as { name: string; sandbox?: Record<string, unknown>; steps: Record<string, unknown>[] };

  const known = new Set(PREDEFINED_NAMES);
  const steps = scenario.steps.map((spec, index): Step => {
    for (const [path, name] of referencesByPath(spec, ['steps', index])) {
      if (!known.has(name)) fail(path, `\${${name}} is not saved by an earlier step (known here: ${[...known].join(', ')})`);
    }
    for (const name of Object.keys((spec.save as object | undefined) ?? {})) known.add(name);
    const node = document.getIn(['steps', index], true) as { range: [number, number, number] };
    return { number: index + 1, kind: STEP_KINDS.find((kind) => kind in spec)!, spec, line: lineOf(['steps', index]), source: sourceOf(text, node.range, lines) };
  });
  return { file, name: scenario.name, sandbox: scenario.sandbox ?? {}, steps };
}

/** Where each `${name}` is used in a step, but in its `save` (whose paths point into the answer). */
function* referencesByPath(value: unknown, path: (string | number)[]): Generator<[(string | number)[], string]> {
  if (typeof value === 'string') {
    for (const name of referencesIn(value)) yield [path, name];
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* referencesByPath(item, [...path, index]);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (path.length === 2 && key === 'save') continue;
      for (const name of referencesIn(key)) yield [[...path, key], name];
      yield* referencesByPath(item, [...path, key]);
    }
  }
}

/** The step as written, its later lines moved left by the column of its first. */
function sourceOf(text: string, [start, end]: [number, number, number], lines: LineCounter): string {
  const indent = lines.linePos(start).col - 1;
  const [first, ...rest] = text.slice(start, end).trimEnd().split('\n');
  return ['- ' + first, ...rest.map((line) => '  ' + line.slice(Math.min(indent, line.length - line.trimStart().length)))].join('\n');
}

// A failed check in one line: what was expected and what came. An equality assertion
// (`expect(res.status).toBe(201)`) reads `expected 201, got 200`; one on objects names the first
// fields that differ (`expected brand_id = "5f0c…", got (missing)`) instead of printing both objects;
// any other error (a document violation, a precondition) is its message with the lines joined.
// Assertion messages given to expect() (`the stored value: …`) are kept as the line's prefix.

/** Longest a summary line gets; the rest is cut with `…`. */
const MAX_LINE = 300;
/** Longest an assertion's label (`expect(x, label)`) gets before what was expected. */
const MAX_LABEL = 160;
/** Longest one value gets inside the line. */
const MAX_VALUE = 80;
/** Differing fields named before "and N more". */
const MAX_DIFFERENCES = 3;

/** The messages of toBe, toEqual, toStrictEqual and toMatchObject (not toBeLessThan and the like). */
const EQUALITY = /\/\/ Object\.is equality| to (?:deeply equal|strictly equal|equal|match object) /;

interface AssertionLike {
  message: string;
  actual?: unknown;
  expected?: unknown;
}

export function describeFailure(error: unknown): string {
  const e = (error instanceof Error ? error : new Error(String(error))) as AssertionLike & Error;
  const equality = EQUALITY.test(e.message);
  const message = e.message.replace(/\s*\/\/ Object\.is equality/, '');
  // The assertion's own words come last: a label may quote a body that says "expected" too.
  const at = Math.max(...[...message.matchAll(/(?:^|: )expected /g)].map((m) => m.index), -1);
  if ('expected' in e && 'actual' in e && at >= 0 && equality) {
    const label = at > 0 ? cut(oneLine(message.slice(0, at)), MAX_LABEL) : '';
    // `expect(ok, 'why it is wrong').toBe(true)`: the label says it all.
    if (label && e.expected === true && e.actual === false) return label;
    return cut(`${label ? `${label}: ` : ''}${equalityLine(e.expected, e.actual)}`);
  }
  return cut(oneLine(message));
}

function equalityLine(expected: unknown, actual: unknown): string {
  if (isContainer(expected) && isContainer(actual)) {
    const found: string[] = [];
    let more = 0;
    differences(expected, actual, '', (path, want, got) => {
      if (found.length < MAX_DIFFERENCES) found.push(`${path || '(the value)'} = ${show(want)}, got ${show(got)}`);
      else more += 1;
    });
    if (found.length) return `expected ${found.join('; expected ')}${more ? `; and ${more} more` : ''}`;
  }
  return `expected ${show(expected)}, got ${show(actual)}`;
}

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/**
 * Calls `report` for each leaf of `expected` that `actual` does not hold. Asymmetric matchers
 * (expect.any(String)) are compared by what they accept; keys only `actual` has count only for
 * arrays (a longer list), since toMatchObject allows extra keys.
 */
function differences(expected: unknown, actual: unknown, path: string, report: (path: string, want: unknown, got: unknown) => void): void {
  if (isAsymmetric(expected)) {
    if (!expected.asymmetricMatch(actual)) report(path, expected, actual);
    return;
  }
  if (isContainer(expected) && isContainer(actual) && Array.isArray(expected) === Array.isArray(actual)) {
    const keys = new Set(Object.keys(expected));
    if (Array.isArray(actual)) Object.keys(actual).forEach((key) => keys.add(key));
    for (const key of keys) {
      const child = path ? `${path}.${key}` : key;
      const got = (actual as Record<string, unknown>)[key];
      if (!(key in expected)) report(child, MISSING, got);
      else if (!(key in actual)) report(child, (expected as Record<string, unknown>)[key], MISSING);
      else differences((expected as Record<string, unknown>)[key], got, child, report);
    }
    return;
  }
  if (!Object.is(expected, actual) && JSON.stringify(expected) !== JSON.stringify(actual)) report(path, expected, actual);
}

const MISSING = Symbol('missing');

interface Asymmetric {
  asymmetricMatch(value: unknown): boolean;
  toString(): string;
  toAsymmetricMatcher?(): string;
}

const isAsymmetric = (value: unknown): value is Asymmetric =>
  isContainer(value) && typeof (value as Partial<Asymmetric>).asymmetricMatch === 'function';

function show(value: unknown): string {
  if (value === MISSING) return '(missing)';
  if (value === undefined) return 'undefined';
  if (isAsymmetric(value)) return value.toAsymmetricMatcher?.() ?? value.toString();
  let text: string;
  try {
    text = typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

const oneLine = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' · ')
    .replace(/:\s·\s/g, ': ');

const cut = (text: string, max = MAX_LINE): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

// Values in scenarios: paths into answers (dotted or JSON pointer), `${name}` references to values
// saved earlier, and how an expected value matches an answer's.
//
// Paths: `purchase.products.0.price` or `/purchase/products/0/price`; in a dotted path a negative
// index counts from a list's end (`results.-1` is the last item: the oldest of a newest-first list);
// an empty path is the whole answer.

/** A value found at a path, or ABSENT when there is none. */
export const ABSENT: unique symbol = Symbol('absent');
export type Found = unknown | typeof ABSENT;

export function splitPath(path: string): string[] {
  if (path === '') return [];
  if (path.startsWith('/')) return path.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  return path.split('.');
}

export function valueAt(value: unknown, path: string): Found {
  let node: unknown = value;
  for (const part of splitPath(path)) {
    if (Array.isArray(node)) {
      if (!/^-?\d+$/.test(part)) return ABSENT;
      const index = Number(part) < 0 ? node.length + Number(part) : Number(part);
      if (index < 0 || index >= node.length) return ABSENT;
      node = node[index];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, part)) {
      node = (node as Record<string, unknown>)[part];
    } else {
      return ABSENT;
    }
  }
  return node;
}

/** `${name}`, and `$${name}` for the text `${name}` itself. */
const REFERENCE = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** The names a value refers to, in order (for the check before a run). */
export function referencesIn(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(REFERENCE)].filter((match) => match[1] === '').map((match) => match[2]!);
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [...referencesIn(key), ...referencesIn(item)]);
  return [];
}

export class UnknownName extends Error {
  constructor(readonly missing: string) {
    super(`\${${missing}} has no value`);
  }
}

/**
 * `value` with every `${name}` replaced. A string that is only `${name}` becomes the saved value
 * itself, of whatever type (`amount: ${total}` sends a number); inside a longer string a value is
 * written as text (an object as JSON).
 */
export function substitute(value: unknown, names: ReadonlyMap<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(whole[1]!, names);
    return value.replace(REFERENCE, (_, escaped: string, name: string) => (escaped ? `\${${name}}` : asText(lookup(name, names))));
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, names));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [substitute(key, names) as string, substitute(item, names)]));
  }
  return value;
}

function lookup(name: string, names: ReadonlyMap<string, unknown>): unknown {
  if (!names.has(name)) throw new UnknownName(name);
  return names.get(name);
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Where `actual` differs from `expected`, as [path below here, expected, actual]. A mapping expected
 * matches one that has at least its keys, each matching; a list matches a list of the same length,
 * item by item; anything else must be equal (a number is not the string of its digits).
 */
export function differences(expected: unknown, actual: Found, at = ''): [string, unknown, Found][] {
  const join = (key: string | number) => (at === '' ? String(key) : `${at}.${key}`);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [[at, expected, actual]];
    return expected.flatMap((item, index) => differences(item, actual[index], join(index)));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [[at, expected, actual]];
    return Object.entries(expected).flatMap(([key, item]) =>
      differences(item, Object.hasOwn(actual, key) ? (actual as Record<string, unknown>)[key] : ABSENT, join(key)),
    );
  }
  return Object.is(expected, actual) || (expected === 0 && actual === 0) ? [] : [[at, expected, actual]];
}

/** A value as one short line of JSON, for the report: `"paid"`, `3074`, `(absent)`. */
export function show(value: Found, max = 300): string {
  if (value === ABSENT) return '(absent)';
  if (value === undefined) return '(no JSON answer)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

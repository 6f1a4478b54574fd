// Checks a response against openapi.yaml with Prism's own router and output validator: the status
// must be documented for the operation, and the content type, body schema and documented headers
// must match. Used by the contract suite on every response, by the validating proxy (src/proxy/),
// and by the simulator's own HTTP tests.
//
// Two readings of the document. The full one (the default) is the simulator's: its own tests hold it
// to every field, and a field the document does not name is a violation (its schemas end in
// `unevaluatedProperties: false`). The platform's reading (`{ platform: true }`, what the contract
// suite and the proxy check a real target with) requires no property marked `x-simulator-only: true`
// — a real server that lacks Purchase.service_type conforms, one that answers it with a wrong type
// does not — and takes a field the document does not name (the platform's `company_id`, `user_id`, …)
// as a note: listed and counted, never a failure. `strict: true` makes it a violation again (the
// suite against the simulator it started itself). Every field the document names keeps its type,
// format and bounds in both readings.
//
// How a field the document does not name shows in Prism's output: a diagnostic of code (ajv keyword)
// `unevaluatedProperties` ("must NOT have unevaluated properties: 'company_id'") or, under a schema
// with `additionalProperties: false`, `additionalProperties` ("must NOT have additional properties;
// found 'flow'"), at the object that holds it. Such a field in an `anyOf` branch also fails the
// branch, and with it the anyOf ("payment must be null", "must match a schema in anyOf"): so the
// violations of the platform's reading come from the document with those two keywords taken out
// (every schema open), and its notes are the two keywords' diagnostics of the full reading.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operationsOf, route, validateOutput, type IHttpOperation } from './prism.ts';

export const SPEC_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
/**
 * Run from the TypeScript sources by the tests, the dist/ folder their global setup has just built
 * (test/support/fresh-dist.ts sets it): each test worker reads its readings, when they are of the
 * document as it is now (builtReading), instead of reading the document into operations again (some
 * 3 s of CPU per worker). Unset, and always in the package, the readings beside dist/'s modules are used.
 */
const FRESH_DIST = import.meta.url.endsWith('.ts') ? process.env.TESTS_FRESH_DIST : undefined;
/**
 * The same document as JSON, which `npm run build` writes beside dist/'s copy of openapi.yaml (as
 * src/contract/spec reads it): parsing the YAML took some 0.7 s of CPU each time, three times in every
 * run of the suite (both readings and lib/operations). The sources have none.
 */
const BUILT_JSON_PATH = fileURLToPath(new URL('../../openapi.json', import.meta.url));

type Node = Record<string, any>;

/** openapi.yaml as a new object each call (a reading changes its copy): from the built JSON when there is one. */
export function readDocument(): Node {
  if (existsSync(BUILT_JSON_PATH)) return JSON.parse(readFileSync(BUILT_JSON_PATH, 'utf8')) as Node;
  return (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(readFileSync(SPEC_PATH, 'utf8')) as Node;
}

/**
 * Each reading's operations as `npm run build` wrote them beside openapi.json (buildReadings), with
 * the digest of the document they were read from: reading the document into operations took some
 * 0.7–1.4 s of CPU per reading in every run of the suite and every proxy's start, a file of either
 * unzips and parses in some 40 ms. Gzipped, as each is 3.6 MB of JSON that repeats itself: the two
 * would have been a third of the installed package. The sources have none, and a document changed since the build reads anew.
 */
const builtReadingPath = (name: 'full' | 'platform') =>
  FRESH_DIST ? join(FRESH_DIST, `openapi.${name}-reading.json.gz`) : fileURLToPath(new URL(`../../openapi.${name}-reading.json.gz`, import.meta.url));

interface BuiltReading {
  /** sha256 of openapi.json's text. */
  document: string;
  operations: IHttpOperation[];
}

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');
const digestOf = (documentPath: string): string => sha256(readFileSync(documentPath));

/** The YAML's text last digested, and its digest: both readings ask, and parsing the YAML takes 0.35 s of CPU. */
let yamlDigest: { text: string; digest: string } | undefined;

/**
 * The digest of the document as it is now: of openapi.json beside dist/'s modules; from the sources, of
 * openapi.yaml as the JSON text the build writes into openapi.json.
 */
function documentDigest(): string {
  if (existsSync(BUILT_JSON_PATH)) return digestOf(BUILT_JSON_PATH);
  const text = readFileSync(SPEC_PATH, 'utf8');
  if (yamlDigest?.text !== text) yamlDigest = { text, digest: sha256(JSON.stringify(readDocument())) };
  return yamlDigest.digest;
}

/**
 * The operations of the reading `name` that the build wrote, if they are of the document as it is now
 * (`documentPath`, a test's: of that file).
 */
export function builtReading(name: 'full' | 'platform', documentPath?: string, readingPath = builtReadingPath(name)): IHttpOperation[] | undefined {
  if (!existsSync(readingPath) || (documentPath !== undefined && !existsSync(documentPath))) return undefined;
  const built = JSON.parse(gunzipSync(readFileSync(readingPath)).toString('utf8')) as BuiltReading;
  return built.document === (documentPath === undefined ? documentDigest() : digestOf(documentPath)) ? built.operations : undefined;
}

/** Writes both readings of dist/'s openapi.json beside it (`npm run build`, after the Prism bundle). */
export async function buildReadings(): Promise<void> {
  const document = digestOf(BUILT_JSON_PATH);
  for (const [name, reading] of [['full', {}], ['platform', { platform: true }]] as const) {
    const built: BuiltReading = { document, operations: await readOperations(reading) };
    writeFileSync(builtReadingPath(name), gzipSync(JSON.stringify(built)));
  }
}

/** The operations of a reading, read from the document now (never from a build's). */
export function readOperations({ platform = false }: Reading): Promise<IHttpOperation[]> {
  // The document itself, not its path: the ref parser would parse the YAML again (the two give the same operations).
  return operationsOf(platform ? withUndocumentedFieldsAllowed(withoutSimulatorOnlyRequired(readDocument())) : readDocument());
}

let operations: Promise<IHttpOperation[]> | undefined;
let platformOperations: Promise<IHttpOperation[]> | undefined;

export interface Reading {
  /**
   * The platform's reading: no `x-simulator-only` property is required, and a field the document does
   * not name is a note, not a violation (see the file comment).
   */
  platform?: boolean;
  /**
   * With `platform`: a field the document does not name is a violation, as in the full reading (where
   * it always is); the rest of the platform's reading stays. For the suite run against the simulator
   * it started itself.
   */
  strict?: boolean;
}

/**
 * The operations of the document as a reading sees it. The platform's: without the simulator-only
 * requirements and with every schema open to fields it does not name (withUndocumentedFieldsAllowed).
 */
export function documentOperations({ platform = false }: Reading = {}): Promise<IHttpOperation[]> {
  const read = async (name: 'full' | 'platform') => builtReading(name) ?? readOperations({ platform });
  return platform ? (platformOperations ??= read('platform')) : (operations ??= read('full'));
}

/** The readings a check of `reading` uses: the platform's also reads the full one, for its notes. */
export async function loadReadings(reading: Reading = {}): Promise<void> {
  await Promise.all([documentOperations(), ...(reading.platform ? [documentOperations(reading)] : [])]);
}

/** The two keywords by which a schema refuses a field it does not name (only ever in their `false` form). */
const CLOSING_KEYWORDS = ['unevaluatedProperties', 'additionalProperties'] as const;

/**
 * The document with every `unevaluatedProperties: false` and `additionalProperties: false` taken out:
 * a field no schema names is then allowed wherever it stands, and what remains is every rule of the
 * fields the document names. A keyword holding a schema (a map's values) stays. Changes and returns
 * `document`.
 */
export function withUndocumentedFieldsAllowed(document: Node): Node {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const object = node as Node;
    for (const keyword of CLOSING_KEYWORDS) if (object[keyword] === false) delete object[keyword];
    Object.values(object).forEach(visit);
  };
  visit(document);
  return document;
}

/**
 * The document with every property marked `x-simulator-only: true` (on the property, or on the
 * component schema it refers to) left out of the `required` of each object that has it, its own or
 * through `allOf` (Purchase requires `service_type`, which PurchaseFields marks). Changes and returns
 * `document`.
 */
export function withoutSimulatorOnlyRequired(document: Node): Node {
  const schemas = (document.components?.schemas ?? {}) as Node;
  const referred = (node: Node): Node | undefined => {
    const name = typeof node.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(node.$ref)?.[1] : undefined;
    return name === undefined ? undefined : (schemas[name] as Node | undefined);
  };
  const marked = (node: unknown): boolean => {
    if (!node || typeof node !== 'object') return false;
    return (node as Node)['x-simulator-only'] === true || referred(node as Node)?.['x-simulator-only'] === true;
  };
  /** The names of the properties a schema marks simulator-only, its own and its allOf's. */
  const simulatorOnly = (node: Node, seen = new Set<Node>()): Set<string> => {
    const names = new Set<string>();
    if (seen.has(node)) return names;
    seen.add(node);
    for (const [name, property] of Object.entries((node.properties ?? {}) as Node)) if (marked(property)) names.add(name);
    const parts = [...(Array.isArray(node.allOf) ? node.allOf : []), ...(node.$ref ? [node] : [])] as Node[];
    for (const part of parts) {
      const target = part === node ? referred(node) : (referred(part) ?? part);
      if (target) for (const name of simulatorOnly(target, seen)) names.add(name);
    }
    return names;
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const object = node as Node;
    if (Array.isArray(object.required)) {
      const names = simulatorOnly(object);
      if (names.size) object.required = object.required.filter((name: string) => !names.has(name));
    }
    Object.values(object).forEach(visit);
  };
  visit(document);
  return document;
}

export interface SeenResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A reading's operations by method and number of path segments (`get 5`), in the document's order. */
const candidatesOf = new WeakMap<IHttpOperation[], Map<string, IHttpOperation[]>>();

/**
 * The operations Prism's router could choose for a request: those of its method with as many path
 * segments (Prism matches nothing else). Routed among all of them it scores and sorts every operation
 * of the document for each answer, some 4 s of a whole run; among these few it chooses the same one.
 */
function candidates(resources: IHttpOperation[], method: string, path: string): IHttpOperation[] {
  let byKey = candidatesOf.get(resources);
  if (!byKey) {
    byKey = new Map();
    for (const operation of resources) {
      const key = `${operation.method.toLowerCase()} ${operation.path.split('/').length}`;
      byKey.set(key, [...(byKey.get(key) ?? []), operation]);
    }
    candidatesOf.set(resources, byKey);
  }
  return byKey.get(`${method} ${path.split('/').length}`) ?? [];
}

/** One object for each response schema `sharedSchemas` has seen, by its text. */
const schemaByText = new Map<string, unknown>();
const sharedOf = new WeakMap<IHttpOperation, IHttpOperation>();

/**
 * `operation` with each response schema replaced by the same object wherever the same schema stands
 * (the Error body of every 400, 401 and 404, the Purchase of every action): Prism compiles a validator
 * per schema object, and a reading holds 375 objects for 38 schemas, which differ only in the
 * `x-stoplight` id Prism gives each copy (no keyword of JSON Schema). Compiling each took some 3 s of
 * the 14 s of CPU a whole run's checks use. A copy, made once per operation; the reading is unchanged.
 */
export function sharedSchemas(operation: IHttpOperation): IHttpOperation {
  let shared = sharedOf.get(operation);
  if (shared) return shared;
  const share = (schema: unknown) => {
    const text = JSON.stringify(schema, (key, value: unknown) => (key === 'x-stoplight' ? undefined : value));
    if (!schemaByText.has(text)) schemaByText.set(text, schema);
    return schemaByText.get(text);
  };
  const responses = operation.responses.map((response) =>
    response.contents ? { ...response, contents: response.contents.map((content) => (content.schema ? { ...content, schema: share(content.schema) as typeof content.schema } : content)) } : response,
  );
  shared = { ...operation, responses } as IHttpOperation;
  sharedOf.set(operation, shared);
  return shared;
}

/** The operation of the document a request addresses (path as written in the document), if any. */
export async function operationOf(method: string, documentPath: string, reading: Reading = {}): Promise<IHttpOperation | undefined> {
  const resources = await documentOperations(reading);
  const pathname = documentPath.split('?')[0]!;
  const lowerMethod = method.toLowerCase() as 'get';
  for (const path of pathname.endsWith('/') ? [pathname] : [pathname, `${pathname}/`]) {
    const among = candidates(resources, lowerMethod, path);
    if (among.length === 0) continue;
    const routed = route({ resources: among, input: { method: lowerMethod, url: { path } } });
    if (routed._tag === 'Right') return routed.right;
  }
  return undefined;
}

/** Where in a response a departure from the document lies, or a field it does not name. */
export interface ResponseIssue {
  part: 'status' | 'content-type' | 'headers' | 'body';
  /**
   * The body field (`['purchase', 'products', '0', 'price']`, a missing property or one the document
   * does not name included) or the header; empty for the whole part.
   */
  path: string[];
  message: string;
}

/** What a reading finds in one answer. */
export interface Examined {
  operationId: string;
  /** What the document does not allow, as Prism says it. */
  diagnostics: IDiagnostic[];
  /** The fields the answer has and the document does not name, in a reading that takes them as notes. */
  notes: ResponseIssue[];
}

type IDiagnostic = { path?: (string | number)[]; code?: string | number; message: string; severity: number };

/** The message of a note: a field the document does not name. */
export const UNDOCUMENTED = 'a field openapi.yaml does not name';

/**
 * The field a diagnostic of Prism says the document does not name, as a body path
 * (`['client', 'client_type']`); undefined for any other diagnostic. Prism gives the ajv keyword as
 * `code` and the object holding the field as `path` (`['body', 'client']`), and ends the message with
 * the field's name: `…must NOT have unevaluated properties: 'client_type'`, `…must NOT have additional
 * properties; found 'flow'`. Either the keyword or those words (a Prism that dropped `code`) mark one.
 */
export function undocumentedField(diagnostic: { path?: readonly (string | number)[]; code?: string | number; message: string }): string[] | undefined {
  const byCode = (CLOSING_KEYWORDS as readonly string[]).includes(String(diagnostic.code ?? ''));
  const named = /must NOT have (?:unevaluated properties: |additional properties; found )'((?:[^']|'(?!$))*)'$/.exec(diagnostic.message);
  if (!byCode && !named) return undefined;
  const [where, ...path] = (diagnostic.path ?? []).map(String);
  if (where !== 'body') return undefined;
  return named ? [...path, named[1]!] : path;
}

const isPrefix = (prefix: readonly string[], path: readonly string[]) => prefix.length <= path.length && prefix.every((key, i) => path[i] === key);

/**
 * The answer read in `reading`. Undefined when the document has no operation for the request; only a
 * status diagnostic when it does not document the status.
 */
async function examine(method: string, documentPath: string, response: SeenResponse, reading: Reading): Promise<Examined | undefined> {
  const resource = await operationOf(method, documentPath, reading);
  if (!resource) return undefined;
  const operationId = resource.iid ?? resource.id;
  const codes = resource.responses.map((r) => r.code);
  if (!codes.includes(String(response.status)) && !codes.includes('default')) {
    const message = `status ${response.status} is not documented for ${operationId} (documented: ${codes.join(', ')})`;
    return { operationId, diagnostics: [{ path: [], code: 'status', message, severity: 0 }], notes: [] };
  }
  const element = { statusCode: response.status, headers: response.headers, body: response.body };
  const errorsOf = (operation: IHttpOperation): IDiagnostic[] => {
    const result = validateOutput({ resource: sharedSchemas(operation), element });
    return result._tag === 'Right' ? [] : (result.left as IDiagnostic[]).filter((d) => d.severity === 0);
  };
  if (!reading.platform) return { operationId, diagnostics: errorsOf(resource), notes: [] };
  // The platform's reading: its own document for the violations (open schemas), the full one for the
  // fields it does not name. A field of a branch that fails for a rule of a field it names (a wrong type
  // under an anyOf) is no note: that failure is the violation.
  const full = (await documentOperations()).find((operation) => operation.iid === resource.iid && operation.method === resource.method && operation.path === resource.path);
  const fullErrors = full ? errorsOf(full) : undefined;
  // The platform's reading allows all the full one does (it only opens schemas and requires less): an
  // answer the full reading passes has no violation and no note, and is not validated again (half of
  // the suite's validating, against a simulator, whose answers pass both).
  if (fullErrors?.length === 0) return { operationId, diagnostics: [], notes: [] };
  const diagnostics = errorsOf(resource);
  const violated = diagnostics.map((d) => (d.path ?? []).map(String)).filter((path) => path[0] === 'body' && path.length > 1).map((path) => path.slice(1));
  const seen = new Set<string>();
  const notes: ResponseIssue[] = [];
  for (const diagnostic of fullErrors ?? []) {
    const path = undocumentedField(diagnostic);
    if (!path || violated.some((at) => isPrefix(path, at))) continue;
    const key = JSON.stringify(path);
    if (seen.has(key)) continue;
    seen.add(key);
    notes.push({ part: 'body', path, message: UNDOCUMENTED });
  }
  if (reading.strict) {
    diagnostics.push(...notes.map((note) => ({ path: ['body', ...note.path], code: 'undocumented', message: `Response body property ${note.path.join('.')}: ${UNDOCUMENTED}`, severity: 0 })));
    return { operationId, diagnostics, notes: [] };
  }
  return { operationId, diagnostics, notes };
}

/** What the document says of this response: its violations, one line each, and the fields it does not name. */
export interface Findings {
  /** Empty when the answer conforms. */
  violations: string[];
  /** Fields the answer has that the document does not name, in a reading that takes them as notes. */
  notes: ResponseIssue[];
  /** The operation checked; undefined when the document has none for the request. */
  operationId?: string;
}

/**
 * What in this response the document does not allow, and what it has that the document does not name.
 * Requests to paths or methods the document lacks have no operation to check against and yield nothing.
 */
export async function documentFindings(method: string, documentPath: string, response: SeenResponse, reading: Reading = {}): Promise<Findings> {
  const examined = await examine(method, documentPath, response, reading);
  if (!examined) return { violations: [], notes: [] };
  const violations = examined.diagnostics.map((d) => (d.code === 'status' ? d.message : `${(d.path ?? []).join('.') || 'response'}: ${d.message}`));
  return { violations, notes: examined.notes, operationId: examined.operationId };
}

/** What in this response the document does not allow; empty when it conforms (notes aside). */
export async function documentViolations(method: string, documentPath: string, response: SeenResponse, reading: Reading = {}): Promise<string[]> {
  return (await documentFindings(method, documentPath, response, reading)).violations;
}

/** Throws when the document does not describe this response of this request (the full reading: strict). */
export async function assertDocumented(method: string, documentPath: string, response: SeenResponse, reading: Reading = {}): Promise<void> {
  const problems = await documentViolations(method, documentPath, response, reading);
  if (problems.length) {
    throw new Error(
      `${method} ${documentPath} → ${response.status} does not match openapi.yaml:\n  ${problems.join('\n  ')}\n` +
        `body: ${JSON.stringify(response.body).slice(0, 2000)}`,
    );
  }
}

/**
 * documentViolations, located: for the validating proxy (src/proxy/), which reports each departure by
 * operation and field, and each field the document does not name as a note. Undefined when the
 * document has no operation for the request.
 */
export async function responseIssues(
  method: string,
  documentPath: string,
  response: SeenResponse,
  reading: Reading = {},
): Promise<{ operationId: string; issues: ResponseIssue[]; notes: ResponseIssue[] } | undefined> {
  const examined = await examine(method, documentPath, response, reading);
  if (!examined) return undefined;
  const issues = examined.diagnostics.map((d): ResponseIssue => {
    const [where, ...path] = (d.path ?? []).map(String);
    if (d.code === 'status') return { part: 'status', path: [], message: d.message };
    if (where === 'header') return { part: 'headers', path, message: d.message };
    // Prism reports a missing property at its parent (`body`, "must have required property 'brand_id'");
    // it is named here as the error body names it (src/contract/ajv-errors.ts), and so is a field the
    // document does not name (a strict reading).
    const missing = /must have required property '([^']+)'/.exec(d.message)?.[1];
    if (where === 'body') return { part: 'body', path: missing === undefined ? (d.code === 'undocumented' ? path : (undocumentedField(d) ?? path)) : [...path, missing], message: d.message };
    // The media-type diagnostic is the one without a path.
    return { part: /media type/.test(d.message) ? 'content-type' : 'body', path: [], message: d.message };
  });
  return { operationId: examined.operationId, issues, notes: examined.notes };
}

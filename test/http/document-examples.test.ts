// openapi.yaml's examples of ids name objects of the default sandbox, whose ids are the same on every start
// with the default seed, so that a tool sending the examples (Dredd, Swagger UI's "Try it out", a collection
// generated from the document) reaches an object instead of a 400 or 404. That holds for every path and query
// parameter example, and for every example of a field that names an object (brand_id, client_id, …) in bodies,
// answers and schemas. Two kinds of id are left out: an object's own `id` in an example body (the server assigns
// it, and a create answers a new one), and the ids of a snapshot and of a new sandbox (POST /sim/v1/sandboxes),
// which are another sandbox's. The default sandbox has no purchase, token, subscriber, webhook, delivery,
// fault or statement request: an example of one names none, and a test below fails once the default sandbox has one to name.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';

type Node = Record<string, unknown>;

const doc = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as Node & { paths: Record<string, Node> };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** What the default sandbox has: an example of these names one of its objects. */
type Present = 'brand' | 'company' | 'client' | 'billing_template' | 'one_time_template' | 'subscription_template';
/** What it has none of, and where the API lists them. */
const ABSENT = {
  purchase: async () => list('/api/v1/purchases/'),
  webhook: async () => list('/api/v1/webhooks/'),
  webhook_delivery: async () => list('/sim/v1/webhook_deliveries'),
  fault: async () => list('/sim/v1/faults'),
  checkpoint: async () => list('/sim/v1/checkpoints'),
  statement: async () => list('/api/v1/company_statements/'),
  subscriber: async () => listUnder('/api/v1/billing_templates/', 'clients/'),
  recurring_token: async () => listUnder('/api/v1/clients/', 'recurring_tokens/'),
};
type Kind = Present | keyof typeof ABSENT;

/** Fields and parameters that name an object, by name. */
const NAMED_BY: Record<string, Kind> = {
  brand_id: 'brand',
  company_id: 'company',
  client_id: 'client',
  billing_template_id: 'billing_template',
  purchase_id: 'purchase',
  recurring_token: 'recurring_token',
  token_id: 'recurring_token',
  btc_id: 'subscriber',
  webhook_id: 'webhook',
};

/** The `{id}` of a path, by path: the first that matches. */
const PATH_IDS: [RegExp, Kind][] = [
  [/^\/api\/v1\/clients\/\{id\}\//, 'client'],
  [/^\/api\/v1\/billing_templates\/\{id\}\/send_invoice\/$/, 'one_time_template'],
  [/^\/api\/v1\/billing_templates\/\{id\}\/(add_subscriber|clients)\//, 'subscription_template'],
  [/^\/api\/v1\/billing_templates\/\{id\}\//, 'billing_template'],
  [/^\/(api|sim)\/v1\/purchases\/\{id\}\//, 'purchase'],
  [/^\/api\/v1\/webhooks\/\{id\}\//, 'webhook'],
  [/^\/api\/v1\/company_statements\/\{id\}\//, 'statement'],
  [/^\/sim\/v1\/webhook_deliveries\/\{id\}\//, 'webhook_delivery'],
  [/^\/sim\/v1\/faults\/\{id\}$/, 'fault'],
  [/^\/sim\/v1\/checkpoints\/\{id\}/, 'checkpoint'],
];

/** Examples of another sandbox: a snapshot, and the answer of POST /sim/v1/sandboxes. */
const OTHER_SANDBOX = ['#/components/examples/SandboxSnapshot', '#/paths/~1sim~1v1~1sandboxes'];

interface IdExample {
  where: string;
  kind: Kind | undefined;
  id: string;
}

function deref(node: Node): Node {
  if (typeof node.$ref !== 'string') return node;
  let target: unknown = doc;
  for (const key of node.$ref.replace(/^#\//, '').split('/')) target = (target as Node)[key];
  return deref(target as Node);
}

/** Every parameter example of an id, with the kind its path or name says it names. */
function parameterExamples(): IdExample[] {
  const found: IdExample[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const operations = METHODS.filter((method) => method in item).map((method) => item[method] as Node);
    const parameters = [item.parameters, ...operations.map((operation) => operation.parameters)].flat().filter(Boolean) as Node[];
    for (const parameter of parameters.map(deref)) {
      const name = parameter.name as string;
      const schema = (parameter.schema ?? {}) as Node;
      const values = [
        parameter.example,
        ...Object.values((parameter.examples ?? {}) as Record<string, Node>).map((example) => deref(example).value),
        ...((schema.examples ?? []) as unknown[]),
      ];
      for (const value of values) {
        if (typeof value !== 'string' || !UUID.test(value)) continue;
        const kind = name === 'id' ? PATH_IDS.find(([pattern]) => pattern.test(path))?.[1] : NAMED_BY[name];
        found.push({ where: `${path} ${parameter.in as string} ${name}`, kind, id: value });
      }
    }
  }
  return found;
}

/**
 * Every id in example data and schema `examples` (parameters aside) but objects' own ids, with the kind its
 * field names: the key above it in example data, or the property a schema describes.
 */
function fieldExamples(): IdExample[] {
  const found: IdExample[] = [];
  const walk = (node: unknown, where: string, field: string | undefined, inExample: boolean, inProperties = false) => {
    if (OTHER_SANDBOX.some((prefix) => where.startsWith(prefix))) return;
    if (typeof node === 'string') {
      if (inExample && UUID.test(node) && field !== 'id') found.push({ where, kind: field === undefined ? undefined : NAMED_BY[field], id: node });
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const path = `${where}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (Array.isArray(node)) walk(value, path, field, inExample);
      else if (inExample || inProperties) walk(value, path, key, inExample);
      else if (key === 'parameters') continue;
      // A schema's `examples` are values of the property it describes; an example's `value` is data.
      else if ((key === 'examples' && Array.isArray(value)) || key === 'value' || key === 'example') walk(value, path, field, true);
      else walk(value, path, field, false, key === 'properties');
    }
  };
  walk(doc, '#', undefined, false);
  return found;
}

let sim: RunningSimulator;
const get = async (path: string) => {
  const response = await fetch(sim.url + path, { headers: { authorization: `Bearer ${sim.token}` } });
  return { status: response.status, body: (await response.json()) as Node };
};
async function list(path: string): Promise<Node[]> {
  const { status, body } = await get(path);
  if (status !== 200) throw new Error(`GET ${path}: ${status}`);
  return body.results as Node[];
}

/** The lists under each object of a list: `listUnder('/api/v1/clients/', 'recurring_tokens/')`, every client's tokens. */
async function listUnder(parent: string, child: string): Promise<Node[]> {
  const parents = await list(parent);
  return (await Promise.all(parents.map((object) => list(`${parent}${object.id as string}/${child}`)))).flat();
}

/** Whether the default sandbox has this object, by GET. */
async function names(kind: Present, id: string): Promise<boolean> {
  switch (kind) {
    case 'brand':
      return (await get(`/api/v1/payment_methods/?brand_id=${id}&currency=MYR`)).status === 200;
    case 'company':
      return (await list('/api/v1/billing_templates/')).some((template) => template.company_id === id);
    case 'client':
      return (await get(`/api/v1/clients/${id}/`)).status === 200;
    default: {
      const { status, body } = await get(`/api/v1/billing_templates/${id}/`);
      if (status !== 200) return false;
      return kind === 'billing_template' || body.is_subscription === (kind === 'subscription_template');
    }
  }
}

describe("openapi.yaml's examples of ids name objects of the default sandbox", () => {
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, quiet: true });
  });
  afterAll(() => sim?.stop());

  const examples = [...parameterExamples(), ...fieldExamples()];

  it('finds the examples, and knows what each names', () => {
    expect(examples.filter((example) => example.kind === undefined)).toEqual([]);
    // The path ids of every resource, and the references in bodies.
    expect(new Set(examples.map((example) => example.kind))).toEqual(
      new Set(['brand', 'company', 'client', 'billing_template', 'one_time_template', 'subscription_template', ...Object.keys(ABSENT)]),
    );
  });

  it('every example of a brand, company, client or template id names one of the default sandbox, found by GET', async () => {
    const missing: string[] = [];
    for (const { where, kind, id } of examples) {
      if (kind && !(kind in ABSENT) && !(await names(kind as Present, id))) missing.push(`${where}: ${id} is no ${kind}`);
    }
    expect(missing).toEqual([]);
  });

  it('the default sandbox has no purchase, token, subscriber, webhook, delivery or fault that an example could name', async () => {
    for (const [kind, objects] of Object.entries(ABSENT)) expect(await objects(), kind).toEqual([]);
  });

  it('an example of those names no object of another kind either (a template id on a purchase path was one)', async () => {
    const taken = new Set([
      sim.brandId,
      ...(await list('/api/v1/clients/')).map((client) => client.id),
      ...(await list('/api/v1/billing_templates/')).flatMap((template) => [template.id, template.company_id]),
    ]);
    const misnamed = examples.filter(({ kind, id }) => kind && kind in ABSENT && taken.has(id));
    expect(misnamed).toEqual([]);
  });
});

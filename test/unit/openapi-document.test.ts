// openapi.yaml is the contract: the server builds its route table and validators from it, the
// contract suite checks targets against it and clients are generated from it. These tests check
// the document itself: that Prism reads it, that every schema compiles in ajv's strict mode, that
// the examples it shows are valid, and that every operation documents the answers of DESIGN §3.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isAlias, parseDocument, visit } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js';

type Node = Record<string, unknown>;

const SCHEMA_BASE = 'https://billing-sim.local/schemas/';
const UNKNOWN_UUID = '6b042125-686a-43e0-8a68-23cf5bee102e';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const source = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');
const parsed = parseDocument(source, { uniqueKeys: true });
const doc = parsed.toJS() as Node & { paths: Record<string, Node>; components: Record<string, Record<string, Node>> };
const schemas = doc.components.schemas!;

/** Binding: the server's route table maps these operationIds to handlers. */
const OPERATIONS: Record<string, string> = {
  getHealth: 'GET /healthz',
  createClient: 'POST /api/v1/clients/',
  listClients: 'GET /api/v1/clients/',
  getClient: 'GET /api/v1/clients/{id}/',
  updateClient: 'PUT /api/v1/clients/{id}/',
  patchClient: 'PATCH /api/v1/clients/{id}/',
  deleteClient: 'DELETE /api/v1/clients/{id}/',
  listClientRecurringTokens: 'GET /api/v1/clients/{id}/recurring_tokens/',
  getClientRecurringToken: 'GET /api/v1/clients/{id}/recurring_tokens/{token_id}/',
  deleteClientRecurringToken: 'DELETE /api/v1/clients/{id}/recurring_tokens/{token_id}/',
  createBillingTemplate: 'POST /api/v1/billing_templates/',
  listBillingTemplates: 'GET /api/v1/billing_templates/',
  getBillingTemplate: 'GET /api/v1/billing_templates/{id}/',
  updateBillingTemplate: 'PUT /api/v1/billing_templates/{id}/',
  patchBillingTemplate: 'PATCH /api/v1/billing_templates/{id}/',
  deleteBillingTemplate: 'DELETE /api/v1/billing_templates/{id}/',
  sendInvoice: 'POST /api/v1/billing_templates/{id}/send_invoice/',
  sendOneTimeInvoices: 'POST /api/v1/billing/',
  addSubscriber: 'POST /api/v1/billing_templates/{id}/add_subscriber/',
  listSubscribers: 'GET /api/v1/billing_templates/{id}/clients/',
  getSubscriber: 'GET /api/v1/billing_templates/{id}/clients/{btc_id}/',
  patchSubscriber: 'PATCH /api/v1/billing_templates/{id}/clients/{btc_id}/',
  createPurchase: 'POST /api/v1/purchases/',
  listPurchases: 'GET /api/v1/purchases/',
  getPurchase: 'GET /api/v1/purchases/{id}/',
  chargePurchase: 'POST /api/v1/purchases/{id}/charge/',
  cancelPurchase: 'POST /api/v1/purchases/{id}/cancel/',
  capturePurchase: 'POST /api/v1/purchases/{id}/capture/',
  releasePurchase: 'POST /api/v1/purchases/{id}/release/',
  refundPurchase: 'POST /api/v1/purchases/{id}/refund/',
  markPurchaseAsPaid: 'POST /api/v1/purchases/{id}/mark_as_paid/',
  resendPurchaseInvoice: 'POST /api/v1/purchases/{id}/resend_invoice/',
  deleteRecurringToken: 'POST /api/v1/purchases/{recurring_token}/delete_recurring_token/',
  listPaymentMethods: 'GET /api/v1/payment_methods/',
  createWebhook: 'POST /api/v1/webhooks/',
  listWebhooks: 'GET /api/v1/webhooks/',
  getWebhook: 'GET /api/v1/webhooks/{id}/',
  updateWebhook: 'PUT /api/v1/webhooks/{id}/',
  deleteWebhook: 'DELETE /api/v1/webhooks/{id}/',
  getPublicKey: 'GET /api/v1/public_key/',
  createCompanyStatement: 'POST /api/v1/company_statements/',
  listCompanyStatements: 'GET /api/v1/company_statements/',
  getCompanyStatement: 'GET /api/v1/company_statements/{id}/',
  createSandbox: 'POST /sim/v1/sandboxes',
  getCapabilities: 'GET /sim/v1/capabilities',
  getClock: 'GET /sim/v1/clock',
  getSnapshot: 'GET /sim/v1/snapshot',
  patchClock: 'PATCH /sim/v1/clock',
  advanceClock: 'POST /sim/v1/clock/advance',
  payPurchase: 'POST /sim/v1/purchases/{id}/pay',
  listEvents: 'GET /sim/v1/events',
  listOutbox: 'GET /sim/v1/outbox',
  listWebhookDeliveries: 'GET /sim/v1/webhook_deliveries',
  resendWebhookDelivery: 'POST /sim/v1/webhook_deliveries/{id}/resend',
  getSandbox: 'GET /sim/v1/sandbox',
  deleteSandbox: 'DELETE /sim/v1/sandbox',
  resetSandbox: 'POST /sim/v1/reset',
  createFault: 'POST /sim/v1/faults',
  listFaults: 'GET /sim/v1/faults',
  deleteFaults: 'DELETE /sim/v1/faults',
  deleteFault: 'DELETE /sim/v1/faults/{id}',
  createCheckpoint: 'POST /sim/v1/checkpoints',
  listCheckpoints: 'GET /sim/v1/checkpoints',
  deleteCheckpoint: 'DELETE /sim/v1/checkpoints/{id}',
  restoreCheckpoint: 'POST /sim/v1/checkpoints/{id}/restore',
  getWebhookChaos: 'GET /sim/v1/webhook_chaos',
  replaceWebhookChaos: 'PUT /sim/v1/webhook_chaos',
  deleteWebhookChaos: 'DELETE /sim/v1/webhook_chaos',
  // DESIGN §14, Gateway flows.
  getProcessing: 'GET /sim/v1/processing',
  replaceProcessing: 'PUT /sim/v1/processing',
};

/** `#/components/schemas/X` → the id X is added under; ajv compiles schemas, not OpenAPI documents. */
function rewriteRefs<T>(node: T): T {
  if (Array.isArray(node)) return node.map(rewriteRefs) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      // Only whole components: the server's rewriting knows no deeper pointer.
      const name = /^#\/components\/schemas\/([^/]+)$/.exec(value)?.[1];
      if (!name) throw new Error(`unexpected $ref ${value}`);
      out[key] = SCHEMA_BASE + name;
    } else {
      out[key] = rewriteRefs(value);
    }
  }
  return out as T;
}

function createAjv(): Ajv2020 {
  // As the server's (src/contract/schemas.ts): strict but for strictRequired, which the test below replaces.
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
  addFormats.default(ajv);
  ajv.addKeyword('x-default');
  ajv.addKeyword('x-simulator-only');
  ajv.addKeyword('x-error-message');
  for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(rewriteRefs(schema), SCHEMA_BASE + name);
  return ajv;
}

/** Follows a local `$ref` (`#/components/examples/X`, `#/components/responses/X`, …). */
function deref(node: Node): Node {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  let target: unknown = doc;
  for (const key of ref.replace(/^#\//, '').split('/')) target = (target as Node)[key];
  if (!target) throw new Error(`unresolved $ref ${ref}`);
  return deref(target as Node);
}

interface DeclaredOperation {
  id: string;
  method: string;
  path: string;
  item: Node;
  operation: Node;
}

function declaredOperations(): DeclaredOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => method in item).map((method) => {
      const operation = item[method] as Node;
      return { id: operation.operationId as string, method, path, item, operation };
    }),
  );
}

/** Every schema an operation shows with JSON content, and the examples shown with it. */
function mediaTypes(): { where: string; schema: Node; examples: Record<string, Node> }[] {
  const found: { where: string; schema: Node; examples: Record<string, Node> }[] = [];
  const collect = (where: string, content: unknown) => {
    for (const [type, media] of Object.entries((content ?? {}) as Record<string, Node>)) {
      found.push({ where: `${where} ${type}`, schema: media.schema as Node, examples: (media.examples ?? {}) as Record<string, Node> });
    }
  };
  for (const { id, operation } of declaredOperations()) {
    collect(`${id} request`, (operation.requestBody as Node | undefined)?.content);
    for (const [status, response] of Object.entries(operation.responses as Record<string, Node>)) {
      collect(`${id} ${status}`, deref(response).content);
    }
  }
  return found;
}

describe('openapi.yaml', () => {
  it('is well-formed YAML declaring OpenAPI 3.1 with the 2020-12 dialect', () => {
    expect(parsed.errors).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:4010', description: 'local simulator' }]);
  });

  it('every path parameter and required query parameter has an example, as Dredd requires to read the document ("Required URI parameter … has no example")', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const parameters = [item.parameters, ...['get', 'put', 'post', 'patch', 'delete'].map((method) => (item[method] as Node | undefined)?.parameters)].flat() as (Node | undefined)[];
      for (const parameter of parameters) {
        if (!parameter) continue;
        const resolved = (typeof parameter.$ref === 'string' ? doc.components.parameters![(parameter.$ref as string).split('/').at(-1)!] : parameter) as Node;
        // Dredd reads the parameter's own `example`, not its schema's `examples`.
        const needed = resolved.in === 'path' || (resolved.in === 'query' && resolved.required === true);
        if (needed && resolved.example === undefined && resolved.examples === undefined) missing.push(`${path} ${resolved.name as string}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has no YAML anchors or aliases: tools built on swagger-parser lose aliased values (Specmatic sent amounts of 7e18)', () => {
    const found: string[] = [];
    visit(parsed, {
      Node(_key, node) {
        if (isAlias(node)) found.push(`alias *${node.source}`);
        else if ('anchor' in node && node.anchor) found.push(`anchor &${node.anchor}`);
      },
    });
    expect(found).toEqual([]);
  });

  it('info.version is the package\'s version, and the description names no file the package does not ship', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; files: string[] };
    const info = doc.info as { version: string; description: string };
    expect(info.version).toBe(pkg.version);
    // /docs shows this text: a file named there must be one a user of the package has.
    const named = [...info.description.matchAll(/`([\w./-]+\.(?:md|yaml|json))`/g)].map((match) => match[1]!);
    for (const file of named) expect(pkg.files.some((entry) => file === entry || file.startsWith(entry)), file).toBe(true);
  });

  it('declares exactly the operations of DESIGN §3, with their operationIds', () => {
    const declared = Object.fromEntries(declaredOperations().map((op) => [op.id, `${op.method.toUpperCase()} ${op.path}`]));
    expect(declared).toEqual(OPERATIONS);
    expect(declaredOperations()).toHaveLength(Object.keys(OPERATIONS).length);
  });

  it('loads in Prism with one operation per declared path and method', async () => {
    const operations = await getHttpOperationsFromSpec(structuredClone(doc));
    const loaded = Object.fromEntries(operations.map((op) => [op.iid, `${op.method.toUpperCase()} ${op.path}`]));
    expect(operations).toHaveLength(Object.keys(OPERATIONS).length);
    expect(loaded).toEqual(OPERATIONS);
  });

  it('lets Prism validate responses against it, as the contract suite does', async () => {
    const operations = await getHttpOperationsFromSpec(structuredClone(doc));
    const getPurchase = operations.find((op) => op.iid === 'getPurchase')!;
    const paid = deref({ $ref: '#/components/examples/PurchasePaid' }).value as Node;
    const check = (body: unknown) =>
      validateOutput({ resource: getPurchase, element: { statusCode: 200, headers: { 'content-type': 'application/json' }, body } });
    expect(check(paid)._tag).toBe('Right');
    expect(check({ ...paid, extra: 1 })._tag).toBe('Left');
    expect(check({ ...paid, purchase: { ...(paid.purchase as Node), total: 'x' } })._tag).toBe('Left');
  });

  it('secures every operation with bearerAuth except getHealth and createSandbox', () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    const open = declaredOperations().filter(({ operation }) => Array.isArray(operation.security) && operation.security.length === 0);
    expect(open.map((op) => op.id).sort()).toEqual(['createSandbox', 'getHealth']);
  });

  it('documents the success answer and 400, 401, 404 and 413 wherever they can happen', () => {
    for (const { id, item, operation } of declaredOperations()) {
      const responses = operation.responses as Record<string, Node>;
      const statuses = Object.keys(responses);
      const parameters = [...((item.parameters ?? []) as Node[]), ...((operation.parameters ?? []) as Node[])].map(deref);
      const hasBody = operation.requestBody !== undefined;
      const secured = !(Array.isArray(operation.security) && operation.security.length === 0);
      expect(statuses.filter((s) => /^2/.test(s)), id).toHaveLength(1);
      if (hasBody || parameters.some((p) => p.in === 'query')) expect(statuses, id).toContain('400');
      if (secured) expect(statuses, id).toContain('401');
      if (parameters.some((p) => p.in === 'path')) expect(statuses, id).toContain('404');
      if (hasBody) expect(statuses, id).toContain('413');
      if ('204' in responses) expect(responses['204']!.content, id).toBeUndefined();
    }
  });

  it('uses the 3.1 forms only: no `example` or `nullable` inside a schema', () => {
    const offending: string[] = [];
    const walk = (node: unknown, path: string, inSchema: boolean) => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (inSchema && (key === 'example' || key === 'nullable')) offending.push(`${path}/${key}`);
        // Example values are data, not schemas: do not look inside them.
        if (key === 'examples' || key === 'value') continue;
        walk(value, `${path}/${key}`, inSchema || key === 'schema' || key === 'schemas');
      }
    };
    walk(doc, '#', false);
    expect(offending).toEqual([]);
  });

  it('declares every name of a `required` list in the schema or in one it composes (ajv\'s strictRequired is off)', () => {
    const undeclared: string[] = [];
    /** Property names a schema declares, its allOf members' (followed through $ref) included. */
    const declared = (node: Node): string[] => [
      ...Object.keys((node.properties ?? {}) as Node),
      ...((node.allOf ?? []) as Node[]).flatMap((part) => declared(deref(part))),
    ];
    /** `inherited`: what the enclosing schema declares, for if/then/else, which apply to the same object. */
    const walk = (node: unknown, path: string, inherited: string[]) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}/${i}`, []));
      const schema = node as Node;
      const names = [...declared(schema), ...inherited];
      for (const name of (schema.required ?? []) as string[]) if (!names.includes(name)) undeclared.push(`${path}: ${name}`);
      for (const [key, value] of Object.entries(schema)) {
        if (key === 'examples') continue;
        walk(value, `${path}/${key}`, ['if', 'then', 'else'].includes(key) ? names : []);
      }
    };
    for (const [name, schema] of Object.entries(schemas)) walk(schema, name, []);
    expect(undeclared).toEqual([]);
  });

  it('gives every pattern its words (`x-error-message`), so that no regex reaches a user, and words only to keywords the schema has', () => {
    const missing: string[] = [];
    const stray: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      const schema = node as Node;
      const words = schema['x-error-message'] as Record<string, unknown> | undefined;
      if (typeof schema.pattern === 'string' && typeof words?.pattern !== 'string') missing.push(`${where}: ${schema.pattern}`);
      for (const [keyword, said] of Object.entries(words ?? {})) {
        if (!(keyword in schema) || typeof said !== 'string' || !/^[A-Z].*\.$/.test(said) || /\^|\$$|\\d/.test(said)) stray.push(`${where}: ${keyword}`);
      }
      for (const [key, value] of Object.entries(schema)) if (key !== 'x-error-message' && key !== 'examples' && key !== 'example') walk(value, `${where}/${key}`);
    };
    walk(doc, '#');
    expect(missing).toEqual([]);
    expect(stray).toEqual([]);
  });

  it('checks a merchant URL as a webhook callback: MerchantUrl is HttpUrl or ""', () => {
    expect(schemas.MerchantUrl!.pattern).toBe(`^$|${schemas.HttpUrl!.pattern as string}`);
    expect(schemas.MerchantUrl!['x-error-message']).toEqual(schemas.HttpUrl!['x-error-message']);
  });

  it('writes body defaults as `x-default`, never `default`, which generated clients would make required', () => {
    const found: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'default') found.push(path);
        if (key !== 'examples') walk(value, `${path}/${key}`);
      }
    };
    walk(schemas, '#/components/schemas');
    expect(found).toEqual([]);
  });

  it('gives every resource the server fields id, type, created_on and updated_on, read-only', () => {
    for (const name of ['ClientFields', 'BillingTemplateFields', 'BillingTemplateClientFields', 'PurchaseFields', 'WebhookFields', 'RecurringToken']) {
      const properties = schemas[name]!.properties as Record<string, Node>;
      for (const field of ['id', 'type', 'created_on', 'updated_on']) expect(properties[field]?.readOnly, `${name}.${field}`).toBe(true);
      expect(properties.id!.format, name).toBe('uuid');
    }
  });
});

describe('openapi.yaml schemas in ajv strict mode', () => {
  const ajv = createAjv();
  const validator = (name: string) => ajv.getSchema(SCHEMA_BASE + name)!;

  it.each(Object.keys(schemas))('components/schemas/%s compiles', (name) => {
    expect(typeof validator(name)).toBe('function');
  });

  it('accepts every example shown with a request or response', () => {
    const failures: string[] = [];
    for (const { where, schema, examples } of mediaTypes()) {
      const validate = ajv.compile(rewriteRefs(schema));
      for (const [name, example] of Object.entries(examples)) {
        if (!validate(deref(example).value)) failures.push(`${where} ${name}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  const monthly = () => structuredClone(deref({ $ref: '#/components/examples/BillingTemplateCreateMonthly' }).value) as Node;

  it('accepts a valid BillingTemplateCreate', () => {
    expect(validator('BillingTemplateCreate')(monthly())).toBe(true);
  });

  it('rejects subscription_period 257 (Spec, Limits: subscription_period 1 to 256)', () => {
    const validate = validator('BillingTemplateCreate');
    expect(validate({ ...monthly(), subscription_period: 257 })).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: '/subscription_period', keyword: 'maximum' }));
  });

  it('rejects a misspelt field, so it cannot pass silently', () => {
    const validate = validator('BillingTemplateCreate');
    expect(validate({ ...monthly(), subscripton_period: 2 })).toBe(false);
    expect(validate.errors).toContainEqual(
      expect.objectContaining({ keyword: 'unevaluatedProperties', params: { unevaluatedProperty: 'subscripton_period' } }),
    );
  });

  // XFields types `purchase` loosely (PurchaseDetailsFields); each request schema narrows it to PurchaseDetails.
  const purchaseCreate = () => ({ brand_id: UNKNOWN_UUID, client_id: UNKNOWN_UUID, purchase: structuredClone(monthly().purchase) }) as Node;
  it.each([
    ['BillingTemplateCreate', monthly],
    ['BillingTemplateUpdate', monthly],
    ['BillingTemplatePatch', monthly],
    ['PurchaseCreate', purchaseCreate],
  ] as const)('%s rejects a misspelt field inside the nested purchase and its products', (name, body) => {
    expect(validator(name)(body())).toBe(true);
    const details = body();
    (details.purchase as Node).currncy = 'EUR';
    expect(validator(name)(details)).toBe(false);
    const product = body();
    ((product.purchase as Node).products as Node[])[0]!.prize = 1;
    expect(validator(name)(product)).toBe(false);
    const none = body();
    (none.purchase as Node).products = [];
    expect(validator(name)(none)).toBe(false);
  });

  it('requires brand_id, purchase and is_subscription on create', () => {
    const validate = validator('BillingTemplateCreate');
    expect(validate({})).toBe(false);
    const missing = validate.errors!.filter((e) => e.keyword === 'required').map((e) => e.params.missingProperty);
    expect(missing.sort()).toEqual(['brand_id', 'is_subscription', 'purchase']);
  });

  it('accepts null for nullable fields and rejects it for the others', () => {
    expect(validator('BillingTemplatePatch')({ due: null, issued: null })).toBe(true);
    expect(validator('BillingTemplatePatch')({ title: null })).toBe(false);
  });

  it('rejects a response that lacks a field or carries an extra one', () => {
    const purchase = structuredClone(deref({ $ref: '#/components/examples/PurchasePaid' }).value) as Node;
    expect(validator('Purchase')(purchase)).toBe(true);
    expect(validator('Purchase')({ ...purchase, extra: 1 })).toBe(false);
    const { payment: _payment, ...withoutPayment } = purchase;
    expect(validator('Purchase')(withoutPayment)).toBe(false);
  });

  it('takes a number as Purchase.reference only while it is a safe integer, which every JSON reader keeps exact', () => {
    const validate = validator('PurchaseCreate');
    const body = (reference: unknown) => ({ ...purchaseCreate(), reference });
    expect(validate(body(Number.MAX_SAFE_INTEGER))).toBe(true);
    expect(validate(body('12345678901234567890'))).toBe(true);
    expect(validate(body(Number.MAX_SAFE_INTEGER + 1))).toBe(false);
    expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: '/reference', keyword: 'maximum' }));
    expect(validate(body(-1))).toBe(false);
  });

  it('takes exactly one of to and by in a clock advance', () => {
    const validate = validator('ClockAdvance');
    expect(validate({ by: 'P1M' })).toBe(true);
    expect(validate({ to: '2026-03-01T00:00:00Z' })).toBe(true);
    expect(validate({})).toBe(false);
    expect(validate({ by: 'P1M', to: '2026-03-01T00:00:00Z' })).toBe(false);
    expect(validate({ by: 'one month' })).toBe(false);
  });

  it('takes a date or a date-time as the `to` of a clock advance', () => {
    const validate = validator('ClockAdvance');
    expect(validate({ to: '2028-02-29' })).toBe(true);
    expect(validate({ to: '2026-12-31T23:59:59Z' })).toBe(true);
    expect(validate({ to: '2026-02-29' })).toBe(false);
    expect(validate({ to: '2026-09-21 09:00' })).toBe(false);
  });

  it('describes the error body of DESIGN §3', () => {
    const validate = validator('Error');
    expect(validate({ 'purchase.products.0.price': [{ message: 'This field is required.', code: 'required' }] })).toBe(true);
    expect(validate({})).toBe(false);
    expect(validate({ __all__: [] })).toBe(false);
  });
});

// What each kind of step does. A step that does not come out as written throws a StepFailure
// saying what was expected and what came; the runner reports it with the step.
//
// request, pay and advance make one call each, check its status (any 2xx unless `expect_status`),
// save the names of `save` from the answer, and become "the last answer" that `expect: {fields}`
// without `get` looks at. An expect step reads what it needs and changes no state.

import type { Step } from './load.ts';
import { type Answer, type Connection, describeAnswer, type Query } from './client.ts';
import { ABSENT, differences, show, substitute, valueAt } from './values.ts';
import { countItems } from './counts.ts';
import { StepFailure } from './failure.ts';

export interface RunState {
  connection: Connection;
  names: Map<string, unknown>;
  last?: Answer;
  /** A subscriber's template, once looked for (expect status of a subscriber without `template`). */
  templateOf: Map<string, string>;
}

type Spec = Record<string, unknown>;

export async function runStep(step: Step, state: RunState): Promise<void> {
  // `save` holds paths into the answer, never names to replace.
  const { save, ...rest } = step.spec;
  const spec = substitute(rest, state.names) as Spec;
  if (step.kind === 'expect') return expect(spec.expect as Spec, state);
  const answer = await call(step, spec, state.connection);
  checkStatus(spec.expect_status, answer);
  state.last = answer;
  for (const [name, path] of Object.entries((save as Record<string, string> | undefined) ?? {})) {
    const value = valueAt(answer.body, path);
    if (value === ABSENT || answer.body === undefined) throw new StepFailure(`a value at "${path}" to save as ${name}`, `none in ${describeAnswer(answer)}`);
    state.names.set(name, value);
  }
}

function call(step: Step, spec: Spec, connection: Connection): Promise<Answer> {
  switch (step.kind) {
    case 'request': {
      const { method, path, body, query } = spec.request as { method: string; path: string; body?: unknown; query?: Query };
      return connection.call(method, path, { body, query });
    }
    case 'pay': {
      const { purchase, ...body } = spec.pay as Spec;
      return connection.call('POST', `/sim/v1/purchases/${String(purchase)}/pay`, { body });
    }
    default: {
      const { by, to } = spec.advance as { by?: string; to?: string };
      // A date is sent as written: the simulator reads it as the scenario format says (its midnight, UTC).
      return connection.call('POST', '/sim/v1/clock/advance', { body: by !== undefined ? { by } : { to } });
    }
  }
}

/** A date alone (2028-02-29) is its first instant in UTC. */
export const instant = (value: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);

function checkStatus(expected: unknown, answer: Answer): void {
  const wanted = expected === undefined ? ['2xx'] : Array.isArray(expected) ? expected : [expected];
  const fits = (status: unknown) => (typeof status === 'number' ? status === answer.status : String(status)[0] === String(answer.status)[0]);
  if (!wanted.some(fits)) throw new StepFailure(`status ${wanted.join(' or ')}`, describeAnswer(answer));
}

async function expect(spec: Spec, state: RunState): Promise<void> {
  if ('count' in spec) return countItems(spec, state.connection);
  if ('fields' in spec) return expectFields(spec, state);
  return spec.purchase !== undefined ? expectPurchaseStatus(String(spec.purchase), String(spec.status), state) : expectSubscriberStatus(spec, state);
}

async function get(state: RunState, path: string): Promise<Answer> {
  const answer = await state.connection.call('GET', path);
  if (answer.status !== 200) throw new StepFailure(`GET ${path} to answer 200`, describeAnswer(answer));
  return answer;
}

async function expectFields(spec: Spec, state: RunState): Promise<void> {
  const answer = spec.get !== undefined ? await get(state, String(spec.get)) : state.last;
  if (!answer) throw new StepFailure('an answer to look at', 'no request, pay or advance step before this one (or give get: PATH)');
  const wrong = Object.entries(spec.fields as Spec).flatMap(([path, value]) => differences(value, valueAt(answer.body, path), path));
  if (wrong.length === 0) return;
  const where = `${answer.method} ${answer.target}`;
  throw new StepFailure(
    wrong.map(([path, value]) => `${path} = ${show(value)}`).join('; ') + ` in ${where}`,
    wrong.map(([path, , actual]) => `${path} = ${show(actual)}`).join('; '),
  );
}

async function expectPurchaseStatus(id: string, status: string, state: RunState): Promise<void> {
  const purchase = (await get(state, `/api/v1/purchases/${id}/`)).body as { status: string; status_history?: { status: string; timestamp: number }[] };
  if (purchase.status === status) return;
  const history = (purchase.status_history ?? []).map((entry) => `${entry.status} ${new Date(entry.timestamp * 1000).toISOString().replace('.000', '')}`);
  throw new StepFailure(`purchase ${id} in status ${status}`, `${purchase.status}${history.length ? ` (history: ${history.join(' → ')})` : ''}`);
}

async function expectSubscriberStatus(spec: Spec, state: RunState): Promise<void> {
  const id = String(spec.subscriber);
  const template = spec.template !== undefined ? String(spec.template) : await findTemplate(id, state);
  const subscriber = (await get(state, `/api/v1/billing_templates/${template}/clients/${id}/`)).body as Spec;
  if (subscriber.status === spec.status) return;
  throw new StepFailure(
    `subscriber ${id} in status ${String(spec.status)}`,
    `${String(subscriber.status)} (next billing ${String(subscriber.subscription_billing_scheduled_on)}, ${String(subscriber.number_of_billing_cycles_passed)} cycle(s) passed)`,
  );
}

/** The template a subscriber belongs to: the API reaches subscribers only through their template. */
async function findTemplate(subscriber: string, state: RunState): Promise<string> {
  const known = state.templateOf.get(subscriber);
  if (known) return known;
  const templates = await state.connection.listAll('/api/v1/billing_templates/');
  if ('failed' in templates) throw new StepFailure('the list of templates, to find the subscriber in', describeAnswer(templates.failed));
  for (const template of templates.items) {
    const answer = await state.connection.call('GET', `/api/v1/billing_templates/${String(template.id)}/clients/${subscriber}/`);
    if (answer.status === 200) {
      state.templateOf.set(subscriber, String(template.id));
      return String(template.id);
    }
  }
  throw new StepFailure(`a subscriber ${subscriber}`, `none in the sandbox's ${templates.items.length} template(s)`);
}

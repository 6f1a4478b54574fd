// The cleanup at the end of a run: everything the ledger (ledger.ts) holds is deleted where the API
// allows it, in an order the API accepts — webhooks, billing templates (their subscribers go with
// them, and no billing can run afterwards), purchases, clients (their recurring tokens go with them;
// a client still subscribed cannot be deleted, hence after the templates). The API deletes no
// purchase: each one the suite made is cancelled where it can be (an unpaid one), and counted as
// left. What could not be deleted is summed up in a few lines, by kind and why. The purchases a
// billing made are found through GET /purchases/, which only the simulator has (x-simulator-only):
// on a target without it they cannot be looked for, and a line says so.

import pLimit from 'p-limit';
import { requestConcurrency, type TargetConfig } from './config.ts';
import type { Created, Kind } from './ledger.ts';
import { call, Unreachable, type Answer } from './plain-http.ts';

/** Newest pages of purchases looked through for ones a billing made for the suite's clients (1,000 each). */
const SWEPT_PAGES = 3;

const NAMES: Record<Kind, [string, string]> = {
  client: ['client', 'clients'],
  billing_template: ['billing template', 'billing templates'],
  subscriber: ['subscriber', 'subscribers'],
  purchase: ['purchase', 'purchases'],
  webhook: ['webhook', 'webhooks'],
};
const count = (n: number, kind: Kind) => `${n} ${NAMES[kind][n === 1 ? 0 : 1]}`;

/** What the cleanup did, for the lines it prints and for tests. */
export interface CleanupReport {
  deleted: Partial<Record<Kind, number>>;
  /** Objects that are still there, by kind, with why, e.g. `DELETE → 400 protected`. */
  notDeleted: { kind: Kind; reason: string; count: number }[];
  /** The purchases left (the API deletes none), by the status they are left in. */
  purchasesLeft: Record<string, number>;
  /** The status GET /purchases/ answered on a target that has no purchase list (404 or 405); absent when it has one. */
  noPurchaseList?: number;
}

/** Lines saying what a --keep run left in the accounts. */
export function keptLines(entries: Created[]): string[] {
  if (entries.length === 0) return [];
  const kinds = (['client', 'billing_template', 'subscriber', 'purchase', 'webhook'] as Kind[])
    .map((kind) => [kind, entries.filter((e) => e.kind === kind).length] as const)
    .filter(([, n]) => n > 0);
  // Counts of what was created: a check may have deleted some of it itself (the client checks do).
  return [`Kept (--keep): nothing was deleted at the end; the suite created ${kinds.map(([kind, n]) => count(n, kind)).join(', ')} in the accounts checked.`];
}

export async function cleanUp(target: TargetConfig, entries: Created[]): Promise<CleanupReport> {
  const report: CleanupReport = { deleted: {}, notDeleted: [], purchasesLeft: {} };
  for (const account of [1, 2] as const) {
    const token = account === 1 ? target.token : target.token2;
    const mine = entries.filter((e) => e.account === account);
    if (token && mine.length) await cleanAccount(target, token, mine, report);
  }
  return report;
}

async function cleanAccount(target: TargetConfig, token: string, entries: Created[], report: CleanupReport): Promise<void> {
  const at = (method: string, path: string) => call(`${target.baseUrl}${path}`, { method, token });
  const ids = (kind: Kind) => entries.filter((e) => e.kind === kind).map((e) => e.id);
  const notDeleted = (kind: Kind, reason: string) => {
    const row = report.notDeleted.find((r) => r.kind === kind && r.reason === reason);
    if (row) row.count += 1;
    else report.notDeleted.push({ kind, reason, count: 1 });
  };
  const deleteAll = async (kind: Kind, path: (id: string) => string) => {
    await inParallel(ids(kind), async (id) => {
      const answer = await at('DELETE', path(id));
      // 404: a check deleted it already (WH-CRUD, the client checks).
      if ((answer.status >= 200 && answer.status <= 299) || answer.status === 404) report.deleted[kind] = (report.deleted[kind] ?? 0) + 1;
      else notDeleted(kind, `DELETE → ${answer.status}${firstCode(answer)}`);
    });
  };

  await deleteAll('webhook', (id) => `/webhooks/${id}/`);
  const templates = ids('billing_template');
  await deleteAll('billing_template', (id) => `/billing_templates/${id}/`);
  const subscribers = entries.filter((e) => e.kind === 'subscriber' && templates.includes(e.parent!)).length;
  if (subscribers) report.deleted.subscriber = (report.deleted.subscriber ?? 0) + subscribers;

  const billed = await madeForTheSuite(at, new Set(ids('client')), new Set(templates));
  if (typeof billed === 'number') report.noPurchaseList = billed;
  const purchases = new Set([...ids('purchase'), ...(typeof billed === 'number' ? [] : billed)]);
  await inParallel([...purchases], async (id) => {
    const cancelled = await at('POST', `/purchases/${id}/cancel/`);
    const status = cancelled.status === 200 ? 'cancelled' : (((await at('GET', `/purchases/${id}/`)).body?.status as string | undefined) ?? 'unknown');
    report.purchasesLeft[status] = (report.purchasesLeft[status] ?? 0) + 1;
  });

  await deleteAll('client', (id) => `/clients/${id}/`);
}

/**
 * Purchases of the suite's clients or templates that no answer named: those a billing made. Looked
 * for in the newest pages of GET /purchases/ only; a target without that list (404 or 405) has none
 * to offer: its answer's status comes back instead.
 */
async function madeForTheSuite(at: (method: string, path: string) => Promise<Answer>, clients: Set<string>, templates: Set<string>): Promise<string[] | number> {
  const found: string[] = [];
  if (clients.size === 0 && templates.size === 0) return found;
  for (let page = 1; page <= SWEPT_PAGES; page += 1) {
    const answer = await at('GET', `/purchases/?page_size=1000&page=${page}`);
    if (page === 1 && (answer.status === 404 || answer.status === 405)) return answer.status;
    const results = answer.status === 200 && Array.isArray(answer.body?.results) ? (answer.body.results as Record<string, unknown>[]) : [];
    for (const purchase of results) {
      if (clients.has(purchase.client_id as string) || templates.has(purchase.billing_template_id as string)) found.push(purchase.id as string);
    }
    if (!answer.body?.next) break;
  }
  return found;
}

/** ` protected`: the first error code of an error body, if any. */
function firstCode(answer: Answer): string {
  const errors = Object.values((answer.body ?? {}) as Record<string, { code?: string }[]>);
  const code = Array.isArray(errors[0]) ? errors[0][0]?.code : undefined;
  return code ? ` ${code}` : '';
}

/** Each item's work, with as many requests in flight as the checks had (--concurrency). */
async function inParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  const limit = pLimit(requestConcurrency());
  await Promise.all(items.map((item) => limit(() => work(item))));
}

/** The cleanup's lines: what was deleted, what is left and why. */
export function cleanupLines(report: CleanupReport): string[] {
  const deleted = (['client', 'billing_template', 'webhook'] as Kind[])
    .filter((kind) => report.deleted[kind])
    .map((kind) => `${count(report.deleted[kind]!, kind)}${kind === 'billing_template' && report.deleted.subscriber ? ` (with their ${count(report.deleted.subscriber, 'subscriber')})` : ''}`);
  const lines = deleted.length ? [`Cleanup: deleted ${deleted.join(', ')} the suite created.`] : [];
  const left = Object.values(report.purchasesLeft).reduce((a, b) => a + b, 0);
  if (left) {
    const { cancelled = 0, ...rest } = report.purchasesLeft;
    const others = Object.entries(rest).map(([status, n]) => `${n} ${status}`).join(', ');
    lines.push(
      `Left: ${count(left, 'purchase')}, which the API cannot delete: ${cancelled} cancelled` +
        (others ? `, ${others} (only an unpaid or held purchase can be cancelled)` : '') + '.',
    );
  }
  for (const { kind, reason, count: n } of report.notDeleted) lines.push(`Not deleted: ${count(n, kind)} (${reason}).`);
  if (report.noPurchaseList !== undefined) {
    lines.push(
      `Not looked for: purchases a billing made for the suite's clients, which only GET /purchases/ would find; ` +
        `the target has no purchase list (→ ${report.noPurchaseList}; it is x-simulator-only in openapi.yaml).`,
    );
  }
  return lines;
}

/** The line for a cleanup that could not reach the target. */
export function unreachableLine(error: unknown): string {
  return `Cleanup stopped: ${error instanceof Unreachable ? `the target does not answer (${error.message})` : (error as Error).message}; what the suite created may be left in the accounts.`;
}

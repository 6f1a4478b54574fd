// The ledger: what the suite created in the accounts it checks, noted by the API client (client.ts)
// from every successful create, so that the global setup's teardown can delete it (cleanup.ts).
// Check files run in several workers, so each worker appends to a file of its own in a folder the
// global setup made (TargetConfig.ledger), one JSON line per object, written synchronously: what a
// worker noted is on disk before its request returns, even if the worker dies later. Sandboxes the
// suite makes on a simulator (POST /sim/v1/sandboxes) are its own, not the accounts': not noted.

import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { TargetConfig } from './config.ts';

export type Kind = 'client' | 'billing_template' | 'subscriber' | 'purchase' | 'webhook';

export interface Created {
  /** 1: the main account (--token); 2: the second account (--token2). */
  account: 1 | 2;
  kind: Kind;
  id: string;
  /** A subscriber's billing template. */
  parent?: string;
}

type Node = Record<string, any>;

/** What a successful POST to `path` (relative to the API base, query aside) created, read from what was sent and what came. */
export function createdBy(path: string, sent: unknown, answer: Node): Omit<Created, 'account'>[] {
  const found: Omit<Created, 'account'>[] = [];
  const add = (kind: Kind, id: unknown, parent?: string) => {
    if (typeof id === 'string' && id !== '') found.push(parent === undefined ? { kind, id } : { kind, id, parent });
  };
  let match: RegExpExecArray | null;
  if (/^\/clients\/?$/.test(path)) add('client', answer.id);
  else if (/^\/billing_templates\/?$/.test(path)) add('billing_template', answer.id);
  else if (/^\/webhooks\/?$/.test(path)) add('webhook', answer.id);
  else if (/^\/billing_templates\/[^/]+\/send_invoice\/?$/.test(path)) add('purchase', answer.id);
  else if ((match = /^\/billing_templates\/([^/]+)\/add_subscriber\/?$/.exec(path))) {
    add('subscriber', answer.billing_template_client?.id, decodeURIComponent(match[1]!));
    add('purchase', answer.purchase?.id);
  } else if (/^\/purchases\/?$/.test(path)) {
    add('purchase', answer.id);
    // A `client` object in place of a client_id creates the client with the purchase (openapi.yaml, createPurchase).
    const body = sent as Node | undefined;
    if (body && typeof body === 'object' && body.client !== undefined && body.client_id === undefined) add('client', answer.client_id);
  }
  return found;
}

/**
 * Notes what a request created, when it was a successful POST in one of the two accounts. `token`
 * is the one the request carried (null: none); `sent` the parsed request body.
 */
export function noteCreated(target: TargetConfig, token: string | null, method: string, path: string, sent: unknown, status: number, answer: unknown): void {
  if (!target.ledger || method !== 'POST' || status < 200 || status > 299 || !answer || typeof answer !== 'object') return;
  const account = token === target.token ? 1 : token !== null && token !== '' && token === target.token2 ? 2 : undefined;
  if (account === undefined) return;
  const created = createdBy(path.split('?')[0]!, sent, answer as Node);
  if (created.length === 0) return;
  const lines = created.map((entry) => `${JSON.stringify({ account, ...entry })}\n`).join('');
  appendFileSync(join(target.ledger, `${process.pid}-${threadId}.jsonl`), lines, { mode: 0o600 });
}

/** Everything the workers noted in `folder`, each object once. A torn last line (a worker killed mid-write) is skipped. */
export function readLedger(folder: string): Created[] {
  const seen = new Map<string, Created>();
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(folder, file), 'utf8').split('\n')) {
      if (!line) continue;
      try {
        const entry = JSON.parse(line) as Created;
        seen.set(`${entry.account} ${entry.kind} ${entry.id}`, entry);
      } catch {
        // torn line
      }
    }
  }
  return [...seen.values()];
}

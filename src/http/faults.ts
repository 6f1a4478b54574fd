// Faults for frontend error handling (DESIGN.md §10): a sandbox can make one of its operations
// answer an error (`createPurchase` → 503) or answer late, so a frontend's retry, spinner and error
// paths can be tried against the simulator. This file owns the registry and the one hook the
// dispatcher calls; handlers/faults.ts serves /sim/v1/faults over it.
//
// Conventions:
// - Faults are not sandbox state: they live in memory here, keyed by sandbox id, and are in no
//   snapshot and no data file; a restart forgets them, and POST /sim/v1/reset keeps them.
// - The hook runs after the route match and the token check, before the body is validated and
//   before the sandbox's turn (turn.ts). So an injected 503 answers a malformed body too, as a real
//   outage would, and a delay holds no other request, not even one of the same sandbox.
// - A faulted request changes nothing: it never reaches the turn. Only the fault's own count moves.
// - Faults are tried newest first (the order GET /sim/v1/faults lists them); the first that fires
//   answers, and one request meets at most one fault.

import type { Response } from 'express';
import { randomUUID } from 'node:crypto';
import { ALL, ApiError, errors, fieldError, type ErrorDetail } from '../domain/errors.ts';
import type { Operation } from '../contract/routes.ts';

/** Faults one sandbox holds: more than a test suite sets up at once, few enough to try on every request. */
export const MAX_FAULTS_PER_SANDBOX = 100;
/** The longest delay: past a minute every browser and HTTP client has given up already. */
export const MAX_LATENCY_MS = 60_000;
/** Retry-After of an injected 429 or 503, in seconds: short, so a frontend's retry is quick to watch. */
export const RETRY_AFTER_SECONDS = 1;
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/** The operations that serve the registry: never faulted, so a fault can always be taken away. */
export const FAULT_OPERATIONS = ['createFault', 'listFaults', 'deleteFaults', 'deleteFault'] as const;

export interface Fault {
  id: string;
  operationId: string;
  /** The status to answer; null for a delay only, after which the real handler runs. */
  status: number | null;
  /** Requests it still answers; null until deleted. */
  remaining: number | null;
  latencyMs: number;
  probability: number;
  /** Requests it has answered so far. */
  fired: number;
}

export interface FaultInput {
  operation_id: string;
  status?: number;
  times?: number;
  latency_ms?: number;
  probability?: number;
}

export class FaultRegistry {
  private readonly bySandbox = new Map<string, Fault[]>();
  /** operationId → why it cannot be faulted, or '' when it can. */
  private readonly targets: Map<string, string>;

  constructor(
    operations: Operation[],
    /** Whether the sandbox still exists; faults of a deleted sandbox are dropped on the next create. */
    private readonly exists: (sandboxId: string) => boolean,
  ) {
    const own = new Set<string>(FAULT_OPERATIONS);
    this.targets = new Map(
      operations.map((operation) => [
        operation.operationId,
        own.has(operation.operationId)
          ? `"${operation.operationId}" cannot be faulted: the fault operations stay usable, so a fault can always be deleted.`
          : operation.secured
            ? ''
            : `"${operation.operationId}" takes no token, so it belongs to no sandbox and cannot be faulted.`,
      ]),
    );
  }

  create(sandboxId: string, input: FaultInput): Fault {
    const refused = this.targets.get(input.operation_id);
    if (refused === undefined) {
      throw fieldError('operation_id', { ...errors.invalidChoice(input.operation_id), message: `"${input.operation_id}" is not an operationId of openapi.yaml.` });
    }
    if (refused) throw fieldError('operation_id', { ...errors.invalidChoice(input.operation_id), message: refused });
    if (input.status === undefined && input.latency_ms === undefined) {
      throw fieldError('status', { ...errors.required(), message: 'Send status, latency_ms or both: a fault with neither changes nothing.' });
    }
    this.dropDeletedSandboxes();
    const faults = this.bySandbox.get(sandboxId) ?? [];
    if (faults.length >= MAX_FAULTS_PER_SANDBOX) {
      throw fieldError(ALL, { ...errors.maxValue(MAX_FAULTS_PER_SANDBOX), message: `A sandbox holds at most ${MAX_FAULTS_PER_SANDBOX} faults; delete some first.` });
    }
    const fault: Fault = {
      id: randomUUID(),
      operationId: input.operation_id,
      status: input.status ?? null,
      remaining: input.times ?? null,
      latencyMs: input.latency_ms ?? 0,
      probability: input.probability ?? 1,
      fired: 0,
    };
    this.bySandbox.set(sandboxId, [...faults, fault]);
    return fault;
  }

  /** Oldest first, as paginate() takes them. */
  list(sandboxId: string): Fault[] {
    return this.bySandbox.get(sandboxId) ?? [];
  }

  clear(sandboxId: string): void {
    this.bySandbox.delete(sandboxId);
  }

  remove(sandboxId: string, id: string): boolean {
    const faults = this.list(sandboxId);
    const kept = faults.filter((fault) => fault.id !== id);
    this.keep(sandboxId, kept);
    return kept.length < faults.length;
  }

  /** The fault that answers this request, counted; undefined when none fires. */
  draw(sandboxId: string, operationId: string): Fault | undefined {
    const faults = this.bySandbox.get(sandboxId);
    if (!faults) return undefined;
    for (let i = faults.length - 1; i >= 0; i -= 1) {
      const fault = faults[i]!;
      // Math.random, not the sandbox's seeded ids: a fault is for trying a frontend, not part of a replayable run.
      if (fault.operationId !== operationId || !(Math.random() < fault.probability)) continue;
      fault.fired += 1;
      if (fault.remaining !== null && --fault.remaining === 0) this.remove(sandboxId, fault.id);
      return fault;
    }
    return undefined;
  }

  /**
   * Whether the sandbox has faults at all: the dispatcher's fast path. A deleted sandbox has none:
   * its token must meet the 401 of the turn, not an injected answer.
   */
  has(sandboxId: string): boolean {
    if (!this.bySandbox.has(sandboxId)) return false;
    if (this.exists(sandboxId)) return true;
    this.bySandbox.delete(sandboxId);
    return false;
  }

  private keep(sandboxId: string, faults: Fault[]): void {
    if (faults.length === 0) this.bySandbox.delete(sandboxId);
    else this.bySandbox.set(sandboxId, faults);
  }

  /** A deleted sandbox's faults would otherwise stay for the life of the process. */
  private dropDeletedSandboxes(): void {
    for (const sandboxId of this.bySandbox.keys()) if (!this.exists(sandboxId)) this.bySandbox.delete(sandboxId);
  }
}

/** The documented body of an injected fault (`InjectedFault` in openapi.yaml). */
export function injectedFault(fault: Fault): ErrorDetail {
  return {
    message: `Injected fault ${fault.id}: ${fault.operationId} answers ${fault.status} (DELETE /sim/v1/faults/${fault.id} removes it).`,
    code: 'injected_fault',
  };
}

/**
 * The dispatcher's hook, called for a sandbox that has faults (`registry.has`, which also forgets a
 * deleted sandbox's). Returns true when the request goes on to its handler (no fault fired, or a
 * delay only); false when it has been answered with the fault, or the client left during the delay
 * (nothing more is done for it). The answer is written here, not thrown to the error middleware:
 * that one logs every 500 with a stack trace as a bug of the server, which an injected 500 is not.
 */
export async function applyFaults(registry: FaultRegistry, sandboxId: string, operationId: string, res: Response): Promise<boolean> {
  const fault = registry.draw(sandboxId, operationId);
  if (!fault) return true;
  if (fault.latencyMs > 0 && !(await delayWhileConnected(fault.latencyMs, res))) return false;
  if (fault.status === null) return true;
  if (RETRY_AFTER_STATUSES.has(fault.status)) {
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    // Not a CORS-safelisted header: without this a page's fetch() could not read it.
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
  }
  const error = new ApiError(fault.status, { [ALL]: [injectedFault(fault)] });
  res.locals.errorSummary = error.summary();
  res.status(error.status).json(error.fields);
  return false;
}

/**
 * Waits on an unref'd timer (a pending delay never keeps the process up) and stops early when the
 * connection goes: the response's 'close' before anything was written. The request's own 'close'
 * says only that its body was read (Node ≥ 16), which express.json has done already.
 */
function delayWhileConnected(ms: number, res: Response): Promise<boolean> {
  if (res.destroyed || res.socket?.destroyed !== false) return Promise.resolve(false);
  return new Promise((resolve) => {
    const gone = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', gone);
      resolve(true);
    }, ms);
    timer.unref();
    res.once('close', gone);
  });
}

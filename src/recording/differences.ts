// The replay's differences, each reported once: grouped by operation (the operationId of
// openapi.yaml, or `METHOD /path/{id}/` for a request outside it), kind and key path, with every
// exchange it concerns. The recorded and replayed values shown are the first exchange's.

import type { DifferenceKind, Finding } from './compare.ts';
import { unknowableWhy } from './unknowable.ts';

export interface Difference {
  operation: string;
  kind: DifferenceKind;
  /** Key path in the answer (see compare.ts); '' for the status code. */
  path: string;
  recorded: string;
  replayed: string;
  /** Indexes of the recording's entries (from 0) where it shows. */
  exchanges: number[];
  /** Only for what the simulator cannot know: why it cannot. */
  why?: string;
}

export class Differences {
  private readonly groups = new Map<string, Difference>();

  /** Adds an exchange's findings; `why` marks them all as unknowable (an object that existed before). */
  add(operation: string, index: number, findings: readonly Finding[], why?: string): void {
    for (const finding of findings) {
      // A difference about an object that existed before is kept apart from the same one found as drift.
      const key = JSON.stringify([operation, finding.kind, finding.path, why ?? null]);
      const known = this.groups.get(key);
      if (known) {
        if (!known.exchanges.includes(index)) known.exchanges.push(index);
        continue;
      }
      const reason = why ?? unknowableWhy(operation, finding.path);
      this.groups.set(key, { operation, ...finding, exchanges: [index], ...(reason ? { why: reason } : {}) });
    }
  }

  get drift(): Difference[] {
    return [...this.groups.values()].filter((difference) => difference.why === undefined);
  }

  get unknowable(): Difference[] {
    return [...this.groups.values()].filter((difference) => difference.why !== undefined);
  }
}

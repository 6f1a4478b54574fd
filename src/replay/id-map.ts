// The recording's ids and the simulator's: recorded → replayed, learnt from each pair of answers, and
// used to rewrite every later request before it is sent.
//
// Learning walks the recorded answer and the replayed one side by side: where the recorded one holds
// an id (a UUID) and the replayed one holds an id at the same key, they name the same object. Array
// items are paired by the ids already known, then the rest by position as answered (compare.ts
// pairItems): a list answers newest first on both sides, and the items already known anchor it where
// two objects made in the same frozen second could come in either order. The first pairing of an id
// wins: an object is made once, and later answers only show it again.
//
// An id in a request that no answer has shown is the account's own (its brand) or an object made
// before the recording began. A `brand_id` of that kind is the sandbox's brand; any other is sent as
// recorded, and the answer (a 404 where the recording has a 200) is not the simulator's to know.

import { pairItems } from './compare.ts';
import type { RecordedExchange } from '../recording/exchanges.ts';
import { idsIn, idsInText, isId, replaceIdsInText } from '../recording/recorded-ids.ts';

export class IdMap {
  /** Recorded id (lower case) → the simulator's. */
  readonly ids = new Map<string, string>();
  /** Every id (lower case) a recorded answer has shown so far. */
  private readonly seen = new Set<string>();

  learn(recorded: unknown, replayed: unknown): void {
    for (const found of idsIn(recorded)) this.seen.add(found.value.toLowerCase());
    this.walk(recorded, replayed);
  }

  private walk(recorded: unknown, replayed: unknown): void {
    if (isId(recorded)) {
      if (isId(replayed) && !this.ids.has(recorded.toLowerCase())) this.ids.set(recorded.toLowerCase(), replayed);
      return;
    }
    if (Array.isArray(recorded)) {
      if (Array.isArray(replayed)) for (const [a, b] of pairItems(this.ids)(recorded, replayed)) this.walk(a, b);
      return;
    }
    if (recorded === null || typeof recorded !== 'object' || replayed === null || typeof replayed !== 'object' || Array.isArray(replayed)) return;
    const other = replayed as Record<string, unknown>;
    for (const [key, value] of Object.entries(recorded)) if (key in other) this.walk(value, other[key]);
  }

  /** The path's ids that no recorded answer has shown: objects made before the recording began. */
  unseenIn(path: string): string[] {
    return idsInText(path).filter((id) => !this.seen.has(id.toLowerCase()));
  }

  /** The request as the simulator must get it: ids mapped in path, query and body; an unseen `brand_id` → `brandId`. */
  rewrite(exchange: RecordedExchange, brandId: string | undefined): { target: string; text?: string } {
    if (brandId !== undefined) {
      for (const found of idsIn(exchange.requestBody)) {
        const id = found.value.toLowerCase();
        if (/(^|\.)brand_id$/.test(found.path) && !this.seen.has(id) && !this.ids.has(id)) this.ids.set(id, brandId);
      }
    }
    const target = replaceIdsInText(exchange.path, this.ids) + (exchange.query === '' ? '' : `?${replaceIdsInText(exchange.query, this.ids)}`);
    // The body's text with its ids replaced, and nothing else changed: JSON, a form or any other text alike.
    return exchange.requestText === undefined ? { target } : { target, text: replaceIdsInText(exchange.requestText, this.ids) };
  }
}

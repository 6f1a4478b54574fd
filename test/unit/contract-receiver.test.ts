// The contract suite's webhook receiver takes deliveries from any target: what it keeps is bounded.

import { describe, expect, it } from 'vitest';
import { MAX_DELIVERY_BYTES, startReceiver } from '../../contract-tests/lib/receiver.ts';

describe('the contract suite\'s webhook receiver', () => {
  it('keeps a delivery whole, and at most MAX_DELIVERY_BYTES of an endless one, answering 200 either way', async () => {
    const receiver = await startReceiver();
    try {
      const small = await fetch(receiver.url('/hook'), { method: 'POST', body: '{"event_type":"purchase.paid"}', headers: { 'x-signature': 'c2ln' } });
      expect(small.status).toBe(200);
      const huge = await fetch(receiver.url('/hook'), { method: 'POST', body: 'x'.repeat(3 * MAX_DELIVERY_BYTES) });
      expect(huge.status).toBe(200);
      const [first, second] = receiver.deliveries('/hook');
      expect(first).toEqual({ raw: '{"event_type":"purchase.paid"}', body: { event_type: 'purchase.paid' }, signature: 'c2ln' });
      expect(second!.raw.length).toBe(MAX_DELIVERY_BYTES);
      expect(second!.body).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });
});

// SandboxSerial: a sandbox's work runs one piece at a time, in order. runSoon runs a piece at once when
// nothing of its sandbox is queued (a request answered in the callback that read it), and otherwise waits
// like run; a promise it gives holds up what comes after it.

import { describe, expect, it } from 'vitest';
import { SandboxSerial } from '../../src/engine/background.ts';

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('SandboxSerial.runSoon', () => {
  it('with nothing of the sandbox queued, runs the work at once and gives its value, not a promise', () => {
    const serial = new SandboxSerial();
    const seen: string[] = [];
    const value = serial.runSoon('a', () => (seen.push('ran'), 42));
    seen.push('after the call');
    expect(value).toBe(42);
    expect(seen).toEqual(['ran', 'after the call']);
  });

  it('behind queued work of the same sandbox, waits for it and gives a promise of the value', async () => {
    const serial = new SandboxSerial();
    const seen: string[] = [];
    const { opened, open } = gate();
    const earlier = serial.run('a', async () => {
      await opened;
      seen.push('earlier');
    });
    const later = serial.runSoon('a', () => (seen.push('later'), 'answer'));
    expect(later).toBeInstanceOf(Promise);
    await Promise.resolve();
    expect(seen).toEqual([]);
    open();
    await earlier;
    expect(await later).toBe('answer');
    expect(seen).toEqual(['earlier', 'later']);
  });

  it('a promise the work gives holds up the sandbox: work queued after it runs once it settles', async () => {
    const serial = new SandboxSerial();
    const seen: string[] = [];
    const { opened, open } = gate();
    const slow = serial.runSoon('a', async () => {
      await opened;
      seen.push('slow');
    });
    const next = serial.runSoon('a', () => void seen.push('next'));
    await Promise.resolve();
    expect(seen).toEqual([]);
    open();
    await Promise.all([slow, next]);
    expect(seen).toEqual(['slow', 'next']);
    // Once both have settled, nothing is queued: idle() resolves and the sandbox runs at once again.
    await serial.idle();
    expect(serial.runSoon('a', () => 'at once')).toBe('at once');
  });

  it("another sandbox's queued work does not hold it up", () => {
    const serial = new SandboxSerial();
    void serial.run('a', () => new Promise<void>(() => {}));
    expect(serial.runSoon('b', () => 'b ran')).toBe('b ran');
  });

  it('a throw of work run at once reaches the caller and leaves nothing queued', () => {
    const serial = new SandboxSerial();
    expect(() => serial.runSoon('a', () => {
      throw new Error('refused');
    })).toThrow('refused');
    expect(serial.runSoon('a', () => 'next')).toBe('next');
  });
});

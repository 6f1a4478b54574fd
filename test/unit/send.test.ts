// A body in pieces (Reply.text) is paced: every SLICE_MS of making pieces, the event loop gets a
// turn, so other requests are answered between them even when the client takes every write at once
// (a socket that never pushes back: curl on the loopback took a 417 MB snapshot in 3.9 s, and no
// other request was answered until it had all of it). A client that stops taking it is let go.

import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { SLICE_MS } from '../../src/engine/limits.ts';
import { paced, sendReply } from '../../src/http/send.ts';

/** Pieces that each take `ms` to make, as a large snapshot's do. */
function* slowPieces(count: number, ms: number): Generator<string> {
  for (let i = 0; i < count; i += 1) {
    const until = performance.now() + ms;
    while (performance.now() < until);
    yield `piece ${i}`;
  }
}

describe('a body in pieces', () => {
  it('gives the event loop a turn every SLICE_MS while its pieces are made, however fast they are taken', async () => {
    const count = 20;
    const pieceMs = SLICE_MS / 2;
    let turns = 0;
    let taken: string[] = [];
    const tick = () => {
      turns += 1;
      if (taken.length < count) setImmediate(tick);
    };
    setImmediate(tick);
    for await (const piece of paced(slowPieces(count, pieceMs))) taken.push(piece);
    expect(taken).toEqual(Array.from({ length: count }, (_, i) => `piece ${i}`));
    // 20 pieces of SLICE_MS / 2 are 10 slices: at least one turn after each but the last.
    expect(turns).toBeGreaterThanOrEqual(count / 2 - 1);
  });
});

describe('a client that takes nothing of a body in pieces', () => {
  it('is let go once it has taken nothing for the stalled time, and the pieces stop being made', async () => {
    let made = 0;
    let stopped = false;
    function* endless(): Generator<string> {
      try {
        for (;;) {
          made += 1;
          yield 'x'.repeat(64 * 1024);
        }
      } finally {
        stopped = true;
      }
    }
    const server = createServer((req, res) => sendReply(req as Request, res as unknown as Response, { status: 200, text: endless() }, { stalledMs: 300 }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // Asks, then never reads: the socket's buffers fill and the server can write no more.
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    client.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    client.pause();
    try {
      await vi.waitFor(() => expect(stopped).toBe(true), { timeout: 10_000, interval: 50 });
      // Only what the socket's buffers took was made, not an endless body.
      expect(made).toBeLessThan(2_000);
    } finally {
      client.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

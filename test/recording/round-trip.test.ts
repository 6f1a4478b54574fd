// Issue 43, "Done when": a recording made through `billing-sim proxy --record` in front of one
// simulator replays on a fresh simulator with no drift, and the recording of one scenario becomes a
// scenario file that passes. The flows are the spec's own examples (fixtures/scenarios/: trials,
// month ends, pauses, failed charges, service types), run by the scenario runner through the proxy
// as a QA engineer runs them: a sandbox per scenario, payments through /sim/v1, time travel; so the
// recording holds several sandboxes, each under its own scrubbed token.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';
import { startProxy } from '../../src/proxy/proxy.ts';
import { readHarFile, type Har } from '../../src/recording/har-file.ts';
import { replayRecording, type ReplayResult } from '../../src/replay/replay.ts';
import { scenarioFromRecordingFile } from '../../src/recording/to-scenario.ts';
import { runScenarioFiles } from '../../src/scenario/run.ts';

const dir = mkdtempSync(join(tmpdir(), 'billing-sim-round-trip-'));
const simulators: RunningSimulator[] = [];
const simulator = async () => {
  const sim = await startSimulator({ port: 0, quiet: true });
  simulators.push(sim);
  return sim;
};

afterAll(async () => {
  await Promise.all(simulators.map((sim) => sim.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * An upstream that differs from the simulator in one behaviour: it forwards every request to `sim` and
 * hands each JSON answer of a request that `matches` to `change` before answering it.
 */
async function differingUpstream(sim: RunningSimulator, matches: (method: string, path: string) => boolean, change: (body: any) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
    const answer = await fetch(sim.url + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    let text = await answer.text();
    if (matches(req.method!, req.url!.split('?')[0]!) && text !== '') {
      const body = JSON.parse(text);
      change(body);
      text = JSON.stringify(body);
    }
    const kept = [...answer.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name));
    res.writeHead(answer.status, Object.fromEntries(kept));
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Runs scenario files through a recording proxy in front of `upstreamUrl` (default: a fresh simulator); the recording and the run's exit status. */
async function recordScenarios(files: string[], name: string, upstreamUrl?: string): Promise<{ file: string; har: Har; status: number; lines: string[] }> {
  const upstream = { url: upstreamUrl ?? (await simulator()).url };
  const file = join(dir, `${name}.har`);
  const lines: string[] = [];
  const proxy = await startProxy({ upstream: upstream.url, port: 0, recordFile: file, log: (line) => lines.push(line) });
  let status: number;
  try {
    status = await runScenarioFiles({ files, origin: proxy.url, print: (line) => lines.push(line) });
  } finally {
    await proxy.stop();
  }
  return { file, har: readHarFile(file).har, status, lines };
}

describe('a recording of the spec\'s examples, made through the proxy in front of one simulator', () => {
  let recorded: Awaited<ReturnType<typeof recordScenarios>>;
  let result: ReplayResult;
  beforeAll(async () => {
    recorded = await recordScenarios(['fixtures/scenarios'], 'examples');
    result = await replayRecording({ har: recorded.har, origin: (await simulator()).url });
    // Hang guard: ten scenarios through the proxy, then their replay; a few seconds on a quiet machine.
  }, 240_000);

  it('is made while the scenarios pass through the proxy unchanged', () => {
    expect(recorded.status, recorded.lines.join('\n')).toBe(0);
    const sandboxes = new Set(recorded.har.log.entries.map((entry) => entry.request.headers.find((header) => header.name.toLowerCase() === 'authorization')?.value).filter(Boolean));
    expect(sandboxes.size, 'a scrubbed token per scenario\'s sandbox').toBeGreaterThanOrEqual(10);
    for (const token of sandboxes) expect(token).toMatch(/^Bearer scrubbed-token-\d+$/);
  });

  it('replays on a fresh simulator with no drift', () => {
    expect(result.drift, JSON.stringify(result.drift, null, 1)).toEqual([]);
    expect(result.replayed).toBeGreaterThan(100);
    expect(result.skipped.filter((skip) => !/no answer|outside/.test(skip.why))).toEqual([]);
  });
});

describe('the same flows recorded in front of an upstream that differs in one behaviour', () => {
  it('a paused subscriber answered as active: exactly that difference is drift', async () => {
    const sim = await simulator();
    const subscriber = /^\/api\/v1\/billing_templates\/[^/]+\/clients\/[^/]+\/$/;
    const differing = await differingUpstream(sim, (method, path) => method === 'GET' && subscriber.test(path), (body) => {
      if (body.status === 'subscription_paused') body.status = 'active';
    });
    try {
      const recorded = await recordScenarios(['fixtures/scenarios/pause-and-resume.yaml'], 'differing', differing.url);
      // The scenario itself sees the difference (it expects the pause) and fails; the recording is made all the same.
      expect(recorded.status).toBe(1);
      const result = await replayRecording({ har: recorded.har, origin: (await simulator()).url });
      expect(result.drift.map(({ operation, kind, path, recorded: was, replayed }) => ({ operation, kind, path, was, replayed }))).toEqual([
        { operation: 'getSubscriber', kind: 'value', path: 'status', was: '"active"', replayed: '"subscription_paused"' },
      ]);
    } finally {
      await new Promise((resolve) => differing.server.close(resolve));
    }
  }, 120_000);
});

describe('a scenario from a recording with time passing', () => {
  it('month-end anchoring, recorded through the proxy, becomes a scenario file that passes on a fresh simulator', async () => {
    const recorded = await recordScenarios(['fixtures/scenarios/month-end-anchoring.yaml'], 'month-end');
    expect(recorded.status, recorded.lines.join('\n')).toBe(0);
    const out = join(dir, 'month-end.yaml');
    const written = scenarioFromRecordingFile(recorded.file, out);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/advance:/);
    expect(written.warnings.filter((warning) => !/skipped/.test(warning))).toEqual([]);
    const lines: string[] = [];
    const status = await runScenarioFiles({ files: [out], origin: (await simulator()).url, print: (line) => lines.push(line) });
    expect(status, lines.join('\n')).toBe(0);
    // It checks what happened, not only that requests were answered: a changed status fails it.
    const changed = join(dir, 'month-end-changed.yaml');
    writeFileSync(changed, text.replace(/status: paid/, 'status: refunded'));
    expect(await runScenarioFiles({ files: [changed], origin: (await simulator()).url, print: () => {} })).toBe(1);
  }, 120_000);
});

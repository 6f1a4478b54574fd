// The load generator, in a process of its own so that no measured server shares its event loop
// (and its JIT, and its garbage collector) with autocannon. `load.ts '<json>'` takes a LoadSpec and
// prints the figures of the measured run, after an unmeasured warm-up, as one JSON line.

import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  warmUpSeconds: number;
  /** A number of requests to send instead of `seconds` of them. */
  amount?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const spec = JSON.parse(process.argv[2]!) as LoadSpec;
const result = await autocannon({
  url: spec.url,
  method: spec.method,
  headers: spec.headers,
  body: spec.body,
  connections: spec.connections,
  ...(spec.amount === undefined ? { duration: spec.seconds } : { amount: spec.amount }),
  // Not in @types/autocannon, but in autocannon's own options: a run before the measured one, with
  // the same requests, so that neither the server's JIT warming up nor the first connections count.
  ...(spec.warmUpSeconds > 0 ? ({ warmup: { connections: spec.connections, duration: spec.warmUpSeconds } } as object) : {}),
});
const figures: LoadResult = {
  // A fixed amount ends within a second: autocannon's per-second average counts that last part-second as a
  // whole one, which put the figures of 10,000 requests in steps of some 5 %. The total over the run's time
  // is exact.
  requestsPerSecond: Math.round(spec.amount === undefined ? result.requests.average : result.requests.total / result.duration),
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  requests: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
};
console.log(JSON.stringify(figures));

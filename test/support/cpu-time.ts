// A setup file of every vitest file (vitest.config.ts): with BILLING_SIM_TEST_CPU_LOG set (`npm run test:profile`
// sets it), appends to that file, as a JSON line at the file's end, the CPU its worker spent from the file's
// start to its end, its own and that of the processes it started and waited for (the CLI, the contract suite,
// npm, tsc): on a 2-core machine the run's wall time follows CPU more than waits. The processes' CPU is read from
// /proc, so it is 0 where there is none. A worker runs its files one after another, so a file's own CPU also
// holds what an earlier file of the worker left running meanwhile (a server it did not stop).

import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

const log = process.env.BILLING_SIM_TEST_CPU_LOG;

/** CPU in milliseconds: this process's own, and that of its children it waited for (Linux; else 0). */
function cpuMs(): { own: number; children: number } {
  const { user, system } = process.cpuUsage();
  let children = 0;
  try {
    // Fields 16 and 17 of /proc/self/stat (cutime, cstime), in clock ticks of 1/100 s; the name before `) ` may hold spaces.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    children = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // No /proc: no children's CPU.
  }
  return { own: (user + system) / 1000, children };
}

if (log) {
  const start = cpuMs();
  afterAll(() => {
    const end = cpuMs();
    const line = { file: expect.getState().testPath, ownMs: Math.round(end.own - start.own), childrenMs: end.children - start.children };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}

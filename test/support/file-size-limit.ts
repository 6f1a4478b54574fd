// The kernel's file-size limit (RLIMIT_FSIZE) set on a running server with prlimit: at the data
// files' current size, every write that needs more room fails (EFBIG; node ignores SIGXFSZ), as on
// a full disk, without mounting anything.

import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { expect } from 'vitest';

/** Sets the process's file-size limit: `${bytes}:` (soft limit), or `unlimited:` to lift it. */
export function prlimit(pid: number, fsize: string): void {
  const result = spawnSync('prlimit', ['--pid', String(pid), `--fsize=${fsize}`], { encoding: 'utf8' });
  expect(result.status, `prlimit --fsize=${fsize}: ${result.stderr}${result.error?.message ?? ''}`).toBe(0);
}

/** No room for the server's next write that needs more: the limit at the size of the data file or its WAL, the larger. */
export function limitToDataFiles(pid: number, file: string): void {
  const sizes = [file, `${file}-wal`].map((f) => (existsSync(f) ? statSync(f).size : 0));
  prlimit(pid, `${Math.max(...sizes)}:`);
}

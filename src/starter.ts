// The process that started a long-running command (serve, proxy), when that is npm: `npx billing-sim
// serve` and `npm exec` run this process through a shell, npm → sh -c → node. npm passes SIGTERM
// and SIGINT on to that shell only, and dies of SIGHUP or SIGKILL without a word to it; the shell
// keeps waiting, so this process would keep serving and holding its port for as long as no one
// noticed. So a process started by npm treats the end of npm, or of the shell between, as a stop.
// Started by anything else (node, a container's entrypoint, `nohup … &`), its parent is left alone:
// outliving it is what the user asked for.

import { readFileSync } from 'node:fs';

/** How often the starter is looked for. */
const CHECK_MS = 200;

/** Shells npm runs a command through (its `script-shell`, /bin/sh by default). */
const SHELL = /^(?:sh|dash|bash|zsh|ash|ksh|cmd\.exe|powershell\.exe|pwsh)$/i;

/** The parent pid and command name of `pid`, from Linux's /proc; undefined where there is none. */
function processInfo(pid: number): { parent: number; name: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid …": the name may hold spaces and parentheses, so it ends at the last ')'.
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const parent = Number(stat.slice(close + 2).split(' ')[1]);
    return Number.isInteger(parent) ? { parent, name } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Calls `gone` once npm, which started this process, or the shell it ran this process through, is
 * gone: this process was reparented, or, when the parent is a shell, the shell was. A reparented
 * process is what is left of a dead parent even while that parent is an unreaped zombie (which a
 * signal of 0 still finds). Does nothing unless npm started the process (npm sets `npm_command`).
 * Where /proc is missing (macOS), only this process's own parent is watched.
 */
export function watchStarter(gone: () => void): void {
  if (!process.env.npm_command) return;
  const parent = process.ppid;
  const shell = processInfo(parent);
  const npm = shell && SHELL.test(shell.name) ? shell.parent : undefined;
  const timer = setInterval(() => {
    if (process.ppid === parent && (npm === undefined || processInfo(parent)?.parent === npm)) return;
    clearInterval(timer);
    gone();
  }, CHECK_MS);
  timer.unref();
}

// Which checks a run takes: `--group NAME` (CONTRACT_GROUP, comma-separated) and `--level
// normative|informative` (CONTRACT_LEVEL). A group is the top-level describe of a check file, as
// reporter.ts names it in the summary (`describe('billing templates', …)` in three files makes one
// group of them); a file without one is its own group, named by the file. Group names compare
// without case, and a hyphen stands for a space: `--group billing-templates` is that group.
//
// The groups are read from the check files' text, not by loading them, so that run.ts can refuse an
// unknown name before vitest starts, and vitest.config.ts can give vitest only the files of the
// selected groups. (Each check file has one top-level describe; a file with two would run both.)

import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type SelectedLevel = 'normative' | 'informative';

const CHECKS = fileURLToPath(new URL('../checks/', import.meta.url));
const CHECK_FILE = /\.test\.[jt]s$/;
const TOP_LEVEL_DESCRIBE = /^describe\(\s*(['"`])((?:(?!\1).)+)\1/gm;

/** The name a user may type for a group: `Billing-Templates` → `billing templates`. */
const normalise = (name: string): string => name.trim().toLowerCase().replace(/[\s_-]+/g, ' ');

/** Every group, by name, with its check files relative to the suite's root (`checks/clients.test.ts`). */
export function knownGroups(): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const file of readdirSync(CHECKS).filter((name) => CHECK_FILE.test(name) && !name.endsWith('.d.ts')).sort()) {
    const text = readFileSync(`${CHECKS}${file}`, 'utf8');
    const names = [...text.matchAll(TOP_LEVEL_DESCRIBE)].map((match) => match[2]!);
    for (const name of names.length ? names : [file.replace(CHECK_FILE, '')]) {
      groups.set(name, [...(groups.get(name) ?? []), `checks/${file}`]);
    }
  }
  return groups;
}

/** The groups of CONTRACT_GROUP, or none when it is unset or empty. */
export function groupsFromEnvironment(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.CONTRACT_GROUP ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/**
 * One line saying what is wrong with a selection, or undefined when it can run: an unknown group
 * (the line lists the known ones) or a level other than normative and informative.
 */
export function selectionProblem(groups: readonly string[] = [], level?: string): string | undefined {
  if (level !== undefined && level !== '' && level !== 'normative' && level !== 'informative') {
    return `--level must be normative or informative, got "${level}" (see billing-sim contract --help)`;
  }
  const known = [...knownGroups().keys()];
  const unknown = groups.filter((name) => !known.some((group) => normalise(group) === normalise(name)));
  if (unknown.length === 0) return undefined;
  const names = unknown.map((name) => `"${name}"`).join(', ');
  return `unknown group${unknown.length > 1 ? 's' : ''} ${names}; the groups are: ${known.join(', ')} (see billing-sim contract --help)`;
}

/** The check files of the given groups (relative to the suite's root), or undefined for all of them. */
export function filesOfGroups(groups: readonly string[]): string[] | undefined {
  if (groups.length === 0) return undefined;
  const wanted = new Set(groups.map(normalise));
  const files = [...knownGroups()].filter(([name]) => wanted.has(normalise(name))).flatMap(([, paths]) => paths);
  return [...new Set(files)];
}

/** The level CONTRACT_LEVEL selects, in the process that registers the checks; undefined: both. */
export function selectedLevel(env: NodeJS.ProcessEnv = process.env): SelectedLevel | undefined {
  const level = env.CONTRACT_LEVEL;
  return level === 'normative' || level === 'informative' ? level : undefined;
}

/**
 * The check ids CONTRACT_CHECK selects (comma-separated, `PUR-REFUND-PARTIAL,CLI-GET`), in the
 * process that registers the checks; undefined: every check. The suite's fault test runs only the
 * checks a fault concerns this way (test/contract/faults.test.ts).
 */
export function selectedChecks(env: NodeJS.ProcessEnv = process.env): ReadonlySet<string> | undefined {
  const ids = (env.CONTRACT_CHECK ?? '').split(',').map((id) => id.trim()).filter(Boolean);
  return ids.length ? new Set(ids) : undefined;
}

// The command line's conventions, shared by every command: `-h`/`--help`, every flag also from the
// environment as BILLING_SIM_<FLAG> (a flag given wins), and one clear line for a wrong command line.

import { parseArgs } from 'node:util';

/** A wrong command line or configuration: exit 2 with this one line, which says where help is. */
export class UsageError extends Error {
  /** `command`: whose --help to point at; '' for the top level's. */
  constructor(message: string, command: string) {
    super(`${message} (see billing-sim ${command ? `${command} ` : ''}--help)`);
  }
}

export interface FlagSpec {
  type: 'string' | 'boolean';
  /** Repeatable; from the environment, a comma-separated list. */
  multiple?: boolean;
}

export type FlagValues = Record<string, string | string[] | boolean | undefined>;

/** The environment variable that stands for `--flag-name`: BILLING_SIM_FLAG_NAME. */
export const envName = (flag: string): string => `BILLING_SIM_${flag.toUpperCase().replaceAll('-', '_')}`;

/**
 * Parses a command's flags; a flag left out is taken from its BILLING_SIM_<FLAG> variable.
 * `-h`/`--help` prints the usage and returns undefined: the command then does nothing.
 */
export function parseCommand(
  command: string,
  args: string[],
  flags: Record<string, FlagSpec>,
  usage: string,
  env: NodeJS.ProcessEnv = process.env,
): { values: FlagValues; positionals: string[] } | undefined {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...flags, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages go on, over lines, with advice about `--`; the first sentence says it.
    throw new UsageError((error as Error).message.split(/\.\s/)[0]!.replace(/\.$/, ''), command);
  }
  if (parsed.values.help) {
    console.log(usage);
    return undefined;
  }
  const values: FlagValues = {};
  for (const [flag, spec] of Object.entries(flags)) {
    const given = (parsed.values as FlagValues)[flag];
    values[flag] = given === undefined || (Array.isArray(given) && given.length === 0) ? fromEnv(flag, spec, env[envName(flag)], command) : given;
  }
  return { values, positionals: parsed.positionals };
}

function fromEnv(flag: string, spec: FlagSpec, raw: string | undefined, command: string): string | string[] | boolean | undefined {
  if (raw === undefined) return undefined;
  if (spec.type === 'boolean') {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off|)$/i.test(raw)) return false;
    throw new UsageError(`${envName(flag)} must be true or false, got "${raw}"`, command);
  }
  if (spec.multiple) return raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  return raw === '' ? undefined : raw;
}

/** A flag's value as a non-negative integer, or undefined when absent. */
export function integerFlag(value: FlagValues[string], flag: string, command: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isInteger(parsed) || parsed < 0) {
    throw new UsageError(`--${flag} must be a non-negative integer, got "${String(value)}"`, command);
  }
  return parsed;
}

export function stringFlag(value: FlagValues[string]): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function requiredFlag(value: FlagValues[string], flag: string, command: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${flag} is required (or ${envName(flag)})`, command);
  return value;
}

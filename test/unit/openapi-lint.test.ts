// openapi.yaml is read by tools this project does not run: the linters in its users' CI, their docs and mock
// servers. These tests lint it as two of the common ones do, so that an error they would report shows here first:
// Spectral with its `spectral:oas` ruleset (`spectral lint openapi.yaml`), and Redocly with its recommended rules
// as the project's redocly.yaml sets them (`redocly lint openapi.yaml`). Each may warn only of what is listed
// below with the reason it stays; a warning of any other rule fails, as an error does.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { Yaml } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { lintFromString, loadConfig } from '@redocly/openapi-core';

const DOCUMENT_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));
const REDOCLY_CONFIG = fileURLToPath(new URL('../../redocly.yaml', import.meta.url));
const source = readFileSync(DOCUMENT_PATH, 'utf8');

/** Spectral's severities (DiagnosticSeverity of @stoplight/types): 0 error, 1 warning. */
const SPECTRAL_ERROR = 0;

/** The warnings that stay, by rule, with why; `only` narrows one to the places named. */
interface Accepted {
  why: string;
  only?: string[];
}

const SPECTRAL_WARNINGS: Record<string, Accepted> = {
  'path-keys-no-trailing-slash': { why: "the spec's paths end with `/`, and the platform's clients call them so" },
  'info-contact': { why: 'billing-sim has no address of its own to name' },
  'oas3-unused-component': {
    why: 'InjectedFault describes the answers of injected faults, which any operation can give and none lists',
    only: ['components.responses.InjectedFault'],
  },
};

const REDOCLY_WARNINGS: Record<string, Accepted> = {
  'no-unused-components': { why: SPECTRAL_WARNINGS['oas3-unused-component']!.why, only: ['#/components/responses/InjectedFault'] },
  // The rule looks for `k` and `method` in the `then` alone, not in the schema the if/then belongs to.
  'no-required-schema-properties-undefined': {
    why: "SnapshotJob's if/then requires fields that SnapshotJob itself declares",
    only: ['#/components/schemas/SnapshotJob/then/required/0', '#/components/schemas/SnapshotJob/else/then/required/0'],
  },
};

interface Finding {
  rule: string;
  error: boolean;
  where: string;
  message: string;
}

/** The findings that are errors, or warnings not accepted in `accepted`. */
function unaccepted(findings: Finding[], accepted: Record<string, Accepted>): string[] {
  return findings
    .filter(({ rule, error, where }) => error || !accepted[rule] || (accepted[rule].only && !accepted[rule].only.includes(where)))
    .map(({ rule, error, where, message }) => `${error ? 'error' : 'warning'} ${rule} at ${where}: ${message}`);
}

async function spectralFindings(): Promise<Finding[]> {
  const spectral = new Spectral();
  // What `extends: spectral:oas` means in a ruleset file: the recommended rules of the oas ruleset. (The
  // package's type of the ruleset misses what RulesetDefinition asks of it, hence the cast.)
  spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
  const results = await spectral.run(new Document(source, Yaml, DOCUMENT_PATH));
  return results.map((result) => ({
    rule: String(result.code),
    error: result.severity === SPECTRAL_ERROR,
    where: result.path.join('.'),
    message: result.message,
  }));
}

async function redoclyFindings(): Promise<Finding[]> {
  const config = await loadConfig({ configPath: REDOCLY_CONFIG });
  const problems = await lintFromString({ source, absoluteRef: DOCUMENT_PATH, config });
  return problems.map((problem) => ({
    rule: problem.ruleId,
    error: problem.severity === 'error',
    where: problem.location[0]?.pointer ?? '',
    message: problem.message,
  }));
}

describe('openapi.yaml under the linters other tools use', () => {
  it("Spectral's spectral:oas ruleset reports no error, and warns only of what is accepted", async () => {
    const findings = await spectralFindings();
    expect(unaccepted(findings, SPECTRAL_WARNINGS)).toEqual([]);
    // The ruleset did run: the trailing slashes are always there to warn of.
    expect(findings.some((finding) => finding.rule === 'path-keys-no-trailing-slash')).toBe(true);
  });

  it("Redocly's recommended rules (redocly.yaml) report no error, and warn only of what is accepted", async () => {
    const findings = await redoclyFindings();
    expect(unaccepted(findings, REDOCLY_WARNINGS)).toEqual([]);
  });

  it('redocly.yaml takes the recommended rules and turns off only no-path-trailing-slash', () => {
    const config = readFileSync(REDOCLY_CONFIG, 'utf8');
    const settings = config.split('\n').filter((line) => line.trim() && !line.trim().startsWith('#'));
    expect(settings).toEqual(['extends:', '  - recommended', 'rules:', '  no-path-trailing-slash: off']);
  });
});

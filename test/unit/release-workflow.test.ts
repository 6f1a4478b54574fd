// The release workflow (.github/workflows/release.yml) as GitHub would read it: on a tag v*, the tests, then
// `npm publish --provenance --access public` with NPM_TOKEN and an OIDC token for provenance, and the image of the
// repository's Dockerfile pushed to ghcr.io with the version as its tag. Nothing is published from here: the
// package side is proven by `npm publish --dry-run --offline` (to a registry that does not exist), which packs
// the package and checks its package.json as a real publish would; the image build by scripts/container-test.sh.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  permissions?: Record<string, string>;
  container?: string;
  steps: Step[];
}
interface Workflow {
  on: { push?: { tags?: string[]; branches?: string[] } };
  jobs: Record<string, Job>;
}

const workflow = parse(readFileSync(`${ROOT}.github/workflows/release.yml`, 'utf8')) as Workflow;
const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string };

/** The job's `run` commands, one entry per line, in order. */
const commands = (job: Job) => job.steps.flatMap((step) => (step.run ?? '').split('\n').map((line) => line.trim()).filter(Boolean));
/** The index of the first command that starts with `command`; -1 when none does. */
const at = (job: Job, command: string) => commands(job).findIndex((line) => line === command || line.startsWith(`${command} `));

describe('the release workflow', () => {
  it('runs on a tag v<version> and on nothing else', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*'] } });
    const test = workflow.jobs.test!;
    expect(commands(test)).toContain('test "v$(node -p "require(\'./package.json\').version")" = "$GITHUB_REF_NAME"');
  });

  it('tests first: npm ci, the build, the type check and npm test, with the browser tests\' chromium', () => {
    const test = workflow.jobs.test!;
    const order = ['npm ci', 'npm run build', 'npm run typecheck', 'npm test'].map((command) => at(test, command));
    expect(order.every((index) => index >= 0), commands(test).join('\n')).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(commands(test).some((line) => /apt-get install -y chromium/.test(line))).toBe(true);
  });

  it('publishes to npm after the tests, with provenance and NPM_TOKEN', () => {
    const publish = workflow.jobs.publish!;
    expect(publish.needs).toBe('test');
    expect(publish.permissions).toMatchObject({ 'id-token': 'write' });
    const setup = publish.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with?.['registry-url']).toBe('https://registry.npmjs.org');
    const step = publish.steps.find((candidate) => candidate.run?.startsWith('npm publish'));
    expect(step?.run).toBe('npm publish --provenance --access public');
    expect(step?.env?.NODE_AUTH_TOKEN).toBe('${{ secrets.NPM_TOKEN }}');
    expect(at(publish, 'npm ci')).toBeLessThan(at(publish, 'npm run build'));
    expect(at(publish, 'npm run build')).toBeLessThan(at(publish, 'npm publish'));
    expect(at(publish, 'npm ci')).toBeGreaterThanOrEqual(0);
  });

  it('builds the image from the repository\'s Dockerfile and pushes it to ghcr.io, tagged with the version', () => {
    const image = workflow.jobs.image!;
    expect(image.needs).toBe('test');
    expect(image.permissions).toMatchObject({ packages: 'write' });
    const lines = commands(image);
    expect(lines.some((line) => line.startsWith('echo "$GITHUB_TOKEN" | docker login ghcr.io'))).toBe(true);
    expect(lines).toContain('IMAGE="ghcr.io/${GITHUB_REPOSITORY,,}"');
    expect(lines).toContain('VERSION="${GITHUB_REF_NAME#v}"');
    // The build context is the repository's root, where the Dockerfile is.
    expect(lines.find((line) => line.startsWith('docker build'))).toMatch(/--tag "\$IMAGE:\$VERSION".* \.$/);
    expect(lines).toContain('docker push "$IMAGE:$VERSION"');
    expect(readFileSync(`${ROOT}Dockerfile`, 'utf8')).toMatch(/^FROM /m);
  });
});

describe('npm publish --dry-run', () => {
  it('packs the package with its CLI and documents, and corrects nothing in package.json', async () => {
    // --ignore-scripts: no script runs on publish anyway, and dist/ is what vitest's global setup built.
    // --offline: without it the dry run asks the registry for the package (a minute of retries when it cannot
    // reach it); a registry that does not exist, so that nothing could be sent anywhere.
    const { stdout, stderr } = await run(
      'npm',
      ['publish', '--dry-run', '--offline', '--json', '--ignore-scripts', '--provenance', '--access', 'public', '--registry', 'http://127.0.0.1:9/'],
      { cwd: ROOT, maxBuffer: 64 * 2 ** 20, env: { ...process.env, npm_config_update_notifier: 'false' } },
    );
    const report = JSON.parse(stdout) as Record<string, { name: string; version: string; files: { path: string }[] }>;
    const packed = report['billing-sim']!;
    expect(packed.name).toBe('billing-sim');
    expect(packed.version).toBe(version);
    const files = packed.files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'dist/src/cli.js', 'dist/src/index.js', 'openapi.yaml', 'README.md', 'docs/install.md']));
    // npm rewrites a package.json it finds wrong ("auto-corrected some errors") and publishes the rewrite.
    expect(stderr).not.toMatch(/auto-corrected|errors corrected/);
    expect(stderr).toMatch(/Publishing to http:\/\/127\.0\.0\.1:9\/ with tag latest and public access \(dry-run\)/);
  }, 60_000);
});

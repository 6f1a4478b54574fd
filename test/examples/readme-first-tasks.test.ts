// The README's first tasks as a newcomer copies them, run against a simulator started here: the shell
// blocks of "Frontend developer" and "QA tester" through bash (the simulator's origin in place of
// 127.0.0.1:4010, its token in place of the one the reader pastes), the receiver of
// examples/success-callback as the README starts it, and a payment on the checkout page posted as a
// browser posts it. The README's verifying snippet must be examples/success-callback/verify.mjs as it is.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/index.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(`${ROOT}README.md`, 'utf8');
const EXAMPLE = `${ROOT}examples/success-callback/`;

/** The fenced blocks of `language` in the README section under `heading`, up to the next heading. */
function blocks(heading: string, language: string): string[] {
  const start = README.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const rest = README.slice(start + heading.length + 2);
  const section = rest.slice(0, rest.search(/^#{1,3} /m) === -1 ? undefined : rest.search(/^#{1,3} /m));
  return [...section.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(([, body]) => body!);
}

/** `text` with `from` replaced by `to`, which must be there. */
function replaced(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.split(from).join(to);
}

let sim: RunningSimulator;
/** The block every first task starts with (B and J, get), pointed at this test's simulator. */
let prelude: string;

/** Runs shell text with bash in the repository, as a reader's terminal would; its stdout. */
async function bash(script: string): Promise<string> {
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT, timeout: 30_000 });
  return stdout;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true });
  const [shared] = blocks('## First tasks', 'sh');
  prelude = replaced(shared!, 'B=http://127.0.0.1:4010;', `B=${sim.url};`);
});
afterAll(() => sim?.stop());

describe("the README's frontend developer", () => {
  let receiver: ChildProcess | undefined;
  let output = '';
  afterAll(() => {
    receiver?.kill();
  });

  /** Waits until the receiver has printed a line matching `pattern`; the match. */
  async function printed(pattern: RegExp): Promise<RegExpMatchArray> {
    await expect.poll(() => pattern.test(output)).toBe(true);
    return pattern.exec(output)!;
  }

  it('shows verify.mjs as the file has it', () => {
    const [shown] = blocks('### Frontend developer', 'js');
    expect(shown).toBe(readFileSync(`${EXAMPLE}verify.mjs`, 'utf8'));
  });

  it('creates a purchase whose checkout pays, redirects, and calls success_callback with a signature the receiver verifies', async () => {
    const [start, create] = blocks('### Frontend developer', 'sh');
    // The receiver as the first block starts it, on a free port instead of 9000.
    expect(start).toMatch(/^TOKEN=eyJhbGciOi… +# the whole bearer token npm start printed$/m);
    expect(start).toMatch(/^BILLING_SIM_TOKEN=\$TOKEN node examples\/success-callback\/receiver\.mjs & +# listens on 127\.0\.0\.1:9000$/m);
    expect(readFileSync(`${EXAMPLE}receiver.mjs`, 'utf8')).toContain("Number(process.env.PORT ?? 9000)");
    receiver = spawn(process.execPath, ['examples/success-callback/receiver.mjs'], {
      cwd: ROOT,
      env: { ...process.env, BILLING_SIM_TOKEN: sim.token, BILLING_SIM_BASE_URL: sim.apiUrl, PORT: '0' },
    });
    receiver.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    receiver.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const [, port] = await printed(/^success_callback receiver on http:\/\/127\.0\.0\.1:(\d+)\/callback$/m);

    const script = `${prelude}TOKEN='${sim.token}'\n${replaced(create!, 'http://127.0.0.1:9000/callback', `http://127.0.0.1:${port}/callback`)}`;
    const checkoutUrl = (await bash(script)).trim();
    expect(checkoutUrl).toMatch(new RegExp(`^${sim.url}/checkout/[0-9a-f-]{36}/$`));
    const id = checkoutUrl.split('/').at(-2)!;

    // "Approve" with a card, as the page's form posts it.
    const page = await (await fetch(checkoutUrl)).text();
    expect(page).toContain('value="method:visa"');
    const paid = await fetch(checkoutUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: sim.url },
      body: 'pay_with=method%3Avisa&outcome=approve',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('http://localhost:3000/thanks');
    await printed(new RegExp(`^verified: purchase ${id} is paid \\(purchase\\.paid\\)$`, 'm'));
  });

  it('has the receiver refuse a body that its X-Signature does not sign', async () => {
    const [, port] = /receiver on http:\/\/127\.0\.0\.1:(\d+)\//.exec(output) ?? [];
    expect(port).toBeDefined();
    const forged = await fetch(`http://127.0.0.1:${port}/callback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Signature': Buffer.from('not a signature').toString('base64') },
      body: JSON.stringify({ id: 'forged', status: 'paid', event_type: 'purchase.paid' }),
    });
    expect(forged.status).toBe(400);
    await printed(/^refused: POST \/callback without a valid X-Signature$/m);
    expect(output).not.toMatch(/verified: purchase forged/);
  });
});

describe("the README's QA tester", () => {
  it('bills three months after the first payment, on the dates the README lists, and prints the dashboard link', async () => {
    const [lifecycle] = blocks('### QA tester', 'sh');
    const lines = (await bash(`${prelude}${lifecycle}`)).trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['paid', '3']);
    expect(lines.slice(2, 6)).toEqual(['2026-04-30 paid', '2026-03-30 paid', '2026-02-28 paid', '2026-01-30 paid']);
    expect(lines[6]).toMatch(new RegExp(`^${sim.url}/#token=eyJ[\\w.-]+$`));
    expect(README).toContain('issued 2026-01-30 (the first, paid at checkout), 2026-02-28,\n2026-03-30 and 2026-04-30');
  });
});

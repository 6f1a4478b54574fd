// The suite's summary: passed / failed / skipped per group (the top-level describe of each check
// file), then the skip reasons and the warnings of informative checks, which do not fail the run.

import type { Reporter, TestCase, TestModule } from 'vitest/node';

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
  warned: number;
}

function groupOf(test: TestCase): string {
  let node: TestCase['parent'] = test.parent;
  let name = test.module.relativeModuleId.replace(/^.*\//, '').replace(/\.test\.ts$/, '');
  while (node.type === 'suite') {
    name = node.name;
    node = node.parent;
  }
  return name;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const groups = new Map<string, Tally>();
    const warnings: string[] = [];
    const skips = new Map<string, number>();
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const tally = groups.get(groupOf(test)) ?? { passed: 0, failed: 0, skipped: 0, warned: 0 };
        groups.set(groupOf(test), tally);
        const result = test.result();
        if (result.state === 'skipped') {
          tally.skipped += 1;
          const reason = result.note ?? 'skipped';
          skips.set(reason, (skips.get(reason) ?? 0) + 1);
        } else if (result.state === 'failed') tally.failed += 1;
        else if (result.state === 'passed') tally.passed += 1;
        const warning = test.meta().warning;
        if (warning) {
          tally.warned += 1;
          warnings.push(warning);
        }
      }
    }
    const total = [...groups.values()].reduce(
      (sum, t) => ({ passed: sum.passed + t.passed, failed: sum.failed + t.failed, skipped: sum.skipped + t.skipped, warned: sum.warned + t.warned }),
      { passed: 0, failed: 0, skipped: 0, warned: 0 },
    );
    const line = (name: string, t: Tally) =>
      `  ${name.padEnd(34)} ${String(t.passed).padStart(4)} passed ${String(t.failed).padStart(4)} failed ${String(t.skipped).padStart(4)} skipped${t.warned ? ` (${t.warned} warning${t.warned > 1 ? 's' : ''})` : ''}`;
    const out = ['', 'Contract suite summary', ...[...groups].sort(([a], [b]) => a.localeCompare(b)).map(([name, t]) => line(name, t)), line('all checks', total)];
    if (skips.size) out.push('', 'Skipped (the target cannot do this; not a failure):', ...[...skips].map(([reason, n]) => `  ${n} × ${reason}`));
    if (warnings.length) out.push('', `Warnings (informative checks: DESIGN.md decisions, not spec rules):`, ...warnings.map((w) => `  ${w.replace(/\n/g, '\n    ')}`));
    out.push('', `${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
    console.log(out.join('\n'));
  }
}

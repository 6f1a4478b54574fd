// A step that did not come out as written: what it expected and what came, each one line (or a few,
// joined by "; "), for the report and the JUnit file.

export class StepFailure extends Error {
  constructor(
    readonly expected: string,
    readonly got: string,
  ) {
    super(`expected ${expected}, got ${got}`);
  }
}

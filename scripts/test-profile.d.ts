// Types of scripts/test-profile.js, for its test (test/unit/test-profile.test.ts).
export interface JsonReport {
  numTotalTests: number;
  testResults: { name: string; startTime: number; endTime: number; assertionResults: { fullName: string; duration?: number | null }[] }[];
}
export interface Summary {
  fileCount: number;
  testCount: number;
  fileMs: number;
  files: { file: string; ms: number }[];
  tests: { file: string; test: string; ms: number }[];
}
/** A line of test/support/cpu-time.ts: one file's CPU, its worker's own and its processes'. */
export interface CpuLine {
  file: string;
  ownMs: number;
  childrenMs: number;
}
export interface CpuSummary {
  totalMs: number;
  files: (CpuLine & { ms: number })[];
}
export function slowest(report: JsonReport, top: number, base?: string): Summary;
export function mostCpu(lines: CpuLine[], top: number, base?: string): CpuSummary;
export function format(summary: Summary, wallMs: number, cpu?: CpuSummary): string;

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
export function slowest(report: JsonReport, top: number, base?: string): Summary;
export function format(summary: Summary, wallMs: number): string;

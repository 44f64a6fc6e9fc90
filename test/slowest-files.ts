// A Vitest reporter that ends every run with its slowest test files, so that the next slowdown is seen in
// the run that brought it rather than in a CI bill. A file's time is what it held its worker for: its
// environment, setup, import and tests.
import type { Reporter, TestModule } from 'vitest/node';

export const SLOWEST_COUNT = 20;

export interface FileTime {
  project: string;
  file: string;
  ms: number;
}

export function fileTime(module: TestModule): FileTime {
  const d = module.diagnostic();
  return {
    project: module.project.name,
    file: module.relativeModuleId,
    ms: d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration,
  };
}

/** The table printed at the end of a run: the `count` slowest files, slowest first. */
export function slowestTable(times: readonly FileTime[], count = SLOWEST_COUNT): string {
  const rows = [...times].sort((a, b) => b.ms - a.ms).slice(0, count);
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((r) => r.project.length));
  const lines = rows.map(
    (r) => `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.project.padEnd(width)}  ${r.file}`,
  );
  return [`Slowest ${rows.length} test files (of ${times.length}):`, ...lines].join('\n');
}

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const table = slowestTable(modules.map(fileTime));
    if (table) process.stdout.write(`\n${table}\n`);
  }
}

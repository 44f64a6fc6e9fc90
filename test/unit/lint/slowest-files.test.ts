// The reporter that ends a run with its slowest test files: slowest first, at most twenty, every part of
// a file's time counted, and nothing printed for a run without files.
import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { fileTime, slowestTable } from '../../slowest-files.js';

const times = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    project: i % 2 ? 'e2e' : 'unit',
    file: `test/f${i}.test.ts`,
    ms: i * 100,
  }));

describe('the slowest-files table', () => {
  it('lists the twenty slowest, slowest first, with their project', () => {
    const lines = slowestTable(times(30)).split('\n');
    expect(lines[0]).toBe('Slowest 20 test files (of 30):');
    expect(lines).toHaveLength(21);
    expect(lines[1]).toBe('    2.9 s  e2e   test/f29.test.ts');
    expect(lines[20]).toBe('    1.0 s  unit  test/f10.test.ts');
  });

  it('is empty for a run without files, and whole for a short one', () => {
    expect(slowestTable([])).toBe('');
    expect(slowestTable(times(3)).split('\n')).toHaveLength(4);
  });

  it("counts a file's environment, setup, import and tests", () => {
    const module = {
      project: { name: 'renderer' },
      relativeModuleId: 'test/renderer/x.test.tsx',
      diagnostic: () => ({
        environmentSetupDuration: 1000,
        prepareDuration: 20,
        setupDuration: 30,
        collectDuration: 450,
        duration: 500,
      }),
    } as unknown as TestModule;
    expect(fileTime(module)).toEqual({ project: 'renderer', file: 'test/renderer/x.test.tsx', ms: 2000 });
  });
});

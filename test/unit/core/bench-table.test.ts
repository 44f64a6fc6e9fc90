import { describe, expect, it } from 'vitest';
import { renderTable } from '../../../bench/table.js';

describe('bench table', () => {
  it('joins every module into one table: title column, then the union of metric columns', () => {
    const text = renderTable([
      {
        title: 'Memory',
        rows: [
          { op: 'view', 'ops/s': 1234.567 },
          { op: 'create', 'ops/s': 99 },
        ],
      },
      { title: 'Search', rows: [{ 'median ms': 12.5, ratio: '5.2x' }] },
    ]);
    expect(text.split('\n')).toEqual([
      'benchmark | op     |    ops/s | median ms | ratio',
      '----------|--------|----------|-----------|------',
      'Memory    | view   | 1,234.57 |           |',
      '          | create |       99 |           |',
      'Search    |        |          |      12.5 |  5.2x',
    ]);
  });
  it('renders an empty module as one row with its title', () => {
    expect(renderTable([{ title: 'Nothing', rows: [] }]).split('\n')).toEqual([
      'benchmark',
      '---------',
      'Nothing',
    ]);
  });
});

// Accounting: the API's usage plus estimates since; clearing plans take the oldest results beyond `keep`,
// never the memory tool's, each result at most once; the parts add up to the total.
import { describe, expect, it } from 'vitest';
import { Accounting } from '../../../electron/core/agent/accounting.js';
import type { MessageRecord } from '../../../electron/core/conversations/records.js';

const at = new Date(0).toISOString();
function results(i: number, name = 'memory_search', size = 4_000): MessageRecord {
  const id = `toolu_${i}`;
  return {
    t: 'msg',
    id: `r${i}`,
    kind: 'tool_results',
    role: 'user',
    at,
    tools: { [id]: { name, durationMs: 1, isError: false } },
    content: [{ type: 'tool_result', tool_use_id: id, content: 'x'.repeat(size) }],
  };
}
const user = (text: string): MessageRecord => ({
  t: 'msg',
  id: text,
  kind: 'user',
  role: 'user',
  at,
  text,
  content: [{ type: 'text', text }],
});

describe('Accounting', () => {
  it('starts from an estimate and switches to the measured usage plus what was added since', () => {
    const acc = new Accounting(100);
    acc.add(user('x'.repeat(400)));
    expect(acc.isMeasured).toBe(false);
    const estimated = acc.total;
    expect(estimated).toBeGreaterThan(200);
    acc.measure({ input: 1_000, output: 50, cacheRead: 500, cacheWrite: 20 });
    expect(acc.total).toBe(1_570);
    acc.add(user('y'.repeat(40)));
    expect(acc.total).toBeGreaterThan(1_570);
    expect(acc.total).toBeLessThan(1_600);
  });

  it('plans clearing past the trigger: oldest first, keeping the last N, never memory results', () => {
    const acc = new Accounting(0);
    acc.add(results(0, 'memory'));
    for (let i = 1; i <= 5; i++) acc.add(results(i));
    expect(acc.planClearing(1_000_000, 2, 0)).toBeNull();
    const plan = acc.planClearing(1_000, 2, 0)!;
    expect(plan.ids).toEqual(['toolu_1', 'toolu_2', 'toolu_3']);
    expect(acc.planClearing(1_000, 2, plan.tokens + 1)).toBeNull();
    const before = acc.total;
    acc.cleared(plan.ids, plan.tokens, 20);
    expect(acc.total).toBe(before - plan.tokens + 60);
    expect(acc.planClearing(1_000, 2, 0)).toBeNull();
    acc.add(results(6));
    expect(acc.planClearing(1_000, 2, 0)!.ids).toEqual(['toolu_4']);
  });

  it('parts add up to the total even when the measured total is below the estimates', () => {
    const acc = new Accounting(5_000);
    acc.add(results(1));
    acc.measure({ input: 3_000, output: 10, cacheRead: 0, cacheWrite: 0 });
    const p = acc.parts();
    expect(p.system + p.memory + p.messages + p.toolResults).toBe(acc.total);
    expect(p.messages).toBeGreaterThanOrEqual(0);
  });
});

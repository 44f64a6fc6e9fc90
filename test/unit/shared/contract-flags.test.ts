// What sets a channel apart is a flag on its spec in the contract's table, never a second list of names:
// the checks that read those flags answer from the table.
import { describe, expect, it } from 'vitest';
import { eventNames, invoke, invokeNames, isSpaceFree, type InvokeSpec } from '../../../shared/contract.js';

const spec = (name: (typeof invokeNames)[number]) => invoke[name] as InvokeSpec;

describe('the contract’s channel flags', () => {
  it('answers a space-free domain’s channel in every space unless its spec says spaced', () => {
    for (const name of invokeNames) {
      const freeDomain = name.startsWith('app.') || name.startsWith('spaces.');
      expect({ name, free: isSpaceFree(name) }).toEqual({ name, free: freeDomain && !spec(name).spaced });
    }
    // The memory folder it reveals is the window's space's.
    expect(isSpaceFree('app.openDataFolder')).toBe(false);
    expect(isSpaceFree('app.info')).toBe(true);
    expect(isSpaceFree('memory.list')).toBe(false);
  });

  it('tags the space-free domains’ events as no space’s, and every other event as its space’s', () => {
    for (const name of eventNames)
      expect({ name, free: isSpaceFree(name) }).toEqual({
        name,
        free: name.startsWith('app.') || name.startsWith('spaces.'),
      });
  });

  it('marks as transfers exactly the channels whose request names a target space', () => {
    const transfers = invokeNames.filter((name) => spec(name).transfer === true);
    const naming = invokeNames.filter((name) => {
      const req = spec(name).req as { shape?: Record<string, unknown> };
      return req.shape !== undefined && 'to' in req.shape;
    });
    expect(transfers.length).toBeGreaterThan(0);
    expect([...transfers].sort()).toEqual([...naming].sort());
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONFIRMATIONS,
  whoConfirms,
  type DestructiveAction,
  type DestructiveTarget,
} from '../../../shared/confirmations.js';
import { isInvokeName } from '../../../shared/contract.js';

const actions = Object.keys(CONFIRMATIONS) as DestructiveAction[];

describe('the destructive actions table', () => {
  it('names only channels of the contract', () => {
    expect(actions.sort()).toEqual(['memory.delete', 'memory.forget']);
    for (const action of actions) expect(isInvokeName(action)).toBe(true);
  });

  it.each([
    // action, target, who asks in Electron, who asks in the browser
    ['memory.delete', { path: '/memories/a.md' }, 'page', 'page'],
    ['memory.delete', { path: '/memories/dir', folderFiles: 3 }, 'host', 'page'],
    ['memory.delete', { path: '/memories/empty', folderFiles: 0 }, 'host', 'page'],
    ['memory.forget', { path: '/memories/a.md' }, 'host', 'page'],
  ] as const)('%s %j: %s asks in Electron, %s in the browser', (action, target, electron, browser) => {
    expect(whoConfirms(action, target, true)).toBe(electron);
    expect(whoConfirms(action, target, false)).toBe(browser);
  });

  it('keeps the words the app shows today', () => {
    expect(CONFIRMATIONS['memory.delete'].native({ path: '/memories/dir', folderFiles: 1 })).toEqual({
      message: 'Delete the folder /memories/dir?',
      detail: 'It holds 1 file. You can undo this from the memory history.',
      confirmLabel: 'Delete',
    });
    expect(CONFIRMATIONS['memory.delete'].native({ path: '/memories/dir', folderFiles: 2 })?.detail).toBe(
      'It holds 2 files. You can undo this from the memory history.',
    );
    expect(CONFIRMATIONS['memory.delete'].dialog({ path: '/memories/notes/travel.md' })).toEqual({
      title: 'Delete travel.md?',
      body: [
        { code: '/memories/notes/travel.md' },
        ' will be removed from memory. You can undo this right after.',
      ],
      confirmLabel: 'Delete',
    });
    expect(CONFIRMATIONS['memory.forget'].native({ path: '/memories/a.md' })).toMatchObject({
      message: 'Forget /memories/a.md permanently?',
      confirmLabel: 'Forget',
    });
    expect(CONFIRMATIONS['memory.forget'].dialog({ path: '/memories/notes/a.md' })).toMatchObject({
      title: 'Forget permanently?',
      confirmLabel: 'Forget permanently',
      typeToConfirm: 'a.md',
    });
  });

  it('someone always asks, naming the path, and the irreversible one is typed in the page', () => {
    const target = fc.record(
      {
        path: fc.stringMatching(/^\/memories(\/[a-z0-9 ._-]{1,12}){1,3}$/),
        folderFiles: fc.nat(1000),
      },
      { requiredKeys: ['path'] },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...actions),
        target,
        fc.boolean(),
        (action, t: DestructiveTarget, electron) => {
          const entry = CONFIRMATIONS[action];
          const who = whoConfirms(action, t, electron);
          if (!electron) expect(who).toBe('page');
          if (who === 'host') expect(entry.native(t)?.message).toContain(t.path);
          const dialog = entry.dialog(t);
          expect(dialog.body).toContainEqual({ code: t.path });
          expect(dialog.confirmLabel.length).toBeGreaterThan(0);
          if (action === 'memory.forget') expect(t.path.endsWith(`/${dialog.typeToConfirm}`)).toBe(true);
          expect(entry.cancelled).toMatch(/^Nothing was/);
        },
      ),
    );
  });
});

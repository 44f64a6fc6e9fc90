import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONFIRMATIONS,
  TABLE,
  whoConfirms,
  type DestructiveAction,
  type DestructiveTarget,
  type PageConfirm,
} from '../../../shared/confirmations.js';
import { invoke, invokeNames, isInvokeName, type InvokeSpec } from '../../../shared/contract.js';

const actions = Object.keys(CONFIRMATIONS) as DestructiveAction[];
/** The two whose target is a memory path (and that the host may ask for natively). */
const pathActions = ['memory.delete', 'memory.forget'] as const;

describe('the destructive actions table', () => {
  it('has an entry for every channel the contract marks destructive, and only those', () => {
    const marked = invokeNames.filter((name) => (invoke[name] as InvokeSpec).destructive === true);
    expect([...actions].sort()).toEqual([...marked].sort());
    for (const action of actions) expect(isInvokeName(action)).toBe(true);
    // The audit of issue 14: each of these destroys something, or replaces one copy by another.
    expect(marked).toEqual(
      expect.arrayContaining([
        'memory.delete',
        'memory.forget',
        'conversations.delete',
        'spaces.delete',
        'settings.reset',
        'sync.disconnect',
        'sync.resolveRewritten',
        // Replaces changed (and, when asked, conflicting) files with the imported versions.
        'memory.importApply',
      ]),
    );
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
        fc.constantFrom(...pathActions),
        target,
        fc.boolean(),
        (action, t: DestructiveTarget, electron) => {
          const entry = TABLE[action];
          const who = whoConfirms(action, t, electron);
          if (!electron) expect(who).toBe('page');
          if (who === 'host') expect(entry.native?.(t)?.message).toContain(t.path);
          const dialog = entry.dialog(t);
          expect(dialog.body).toContainEqual({ code: t.path });
          expect(dialog.confirmLabel.length).toBeGreaterThan(0);
          if (action === 'memory.forget') expect(t.path.endsWith(`/${dialog.typeToConfirm}`)).toBe(true);
          expect(entry.cancelled).toMatch(/^Nothing was/);
        },
      ),
    );
  });

  it.each([
    // action, target, title, confirm label, a phrase of the body
    [
      'conversations.delete',
      { title: '' },
      'Delete this conversation?',
      'Delete',
      '“Untitled” will be deleted.',
    ],
    [
      'spaces.delete',
      { name: 'Work', counts: '1 conversation · 2 memory files' },
      'Delete space “Work”?',
      'Delete space',
      '(1 conversation · 2 memory files) go to the trash',
    ],
    ['settings.reset', {}, 'Reset all settings?', 'Reset', 'Your API key, conversations and memory stay.'],
    [
      'sync.disconnect',
      { spaceName: 'Work' },
      'Disconnect sync?',
      'Disconnect',
      'This device stops syncing Work.',
    ],
    [
      'sync.resolveRewritten',
      { how: 'push-mine', spaceName: 'Work', spaceId: 's1' },
      'Push this device’s copy?',
      'Push my copy',
      'under sync/s1.git)',
    ],
    [
      'sync.resolveRewritten',
      { how: 'take-theirs', spaceName: 'Work', spaceId: 's1' },
      'Take the remote’s copy?',
      'Take the remote’s',
      'under sync/s1.backups).',
    ],
    [
      'memory.importApply',
      { added: 2, changed: 1, unchanged: 4, conflicts: 1, refused: 0, overwrite: false },
      'Import memory',
      'Import 3 files',
      '2 new, 1 changed, 4 unchanged, 1 in conflict, 0 refused.',
    ],
  ] as const)('%s: the page asks “%s”', (action, target, title, label, phrase) => {
    const ask = (TABLE[action].dialog as (t: typeof target) => PageConfirm)(target);
    expect(ask).toMatchObject({ title, confirmLabel: label });
    expect(ask.body.join('')).toContain(phrase);
    // Undoable, or a backup first: the host never asks natively, in Electron too.
    expect(TABLE[action].native).toBeNull();
    expect(whoConfirms(action, target as never, true)).toBe('page');
  });

  it('types the space’s name before deleting it', () => {
    expect(TABLE['spaces.delete'].dialog({ name: 'Work', counts: '' }).typeToConfirm).toBe('Work');
  });

  it('the import counts the conflicting files it overwrites, one file in the singular', () => {
    const counts = { added: 0, changed: 0, unchanged: 0, conflicts: 1, refused: 0 };
    expect(TABLE['memory.importApply'].dialog({ ...counts, overwrite: true }).confirmLabel).toBe(
      'Import 1 file',
    );
    expect(TABLE['memory.importApply'].dialog({ ...counts, overwrite: false }).confirmLabel).toBe(
      'Import 0 files',
    );
  });

  it('words the terminal’s question too, for each action the CLI offers', () => {
    // The CLI offers --forget, --forget-permanently and --delete-space; every other entry says it has no
    // terminal command.
    const offered = actions.filter((a) => TABLE[a].terminal !== null);
    expect(offered.sort()).toEqual(['memory.delete', 'memory.forget', 'spaces.delete']);
    // In a synced space the forget says it reaches the other devices and the remote's history, in the
    // desktop's native box as on the page.
    const synced = 'This space syncs: the other devices erase it at their next sync';
    expect(
      CONFIRMATIONS['memory.forget'].native({ path: '/memories/pets.md', synced: true }).detail,
    ).toContain(synced);
    expect(CONFIRMATIONS['memory.forget'].native({ path: '/memories/pets.md' }).detail).not.toContain(synced);
    expect(
      CONFIRMATIONS['memory.forget'].dialog({ path: '/memories/pets.md', synced: true }).more?.[0],
    ).toContain(synced);
    expect(CONFIRMATIONS['memory.forget'].dialog({ path: '/memories/pets.md' }).more).toBeUndefined();
    expect(CONFIRMATIONS['memory.forget'].terminal({ path: '/memories/pets.md' }).noTerminal).toBe(
      'Forgetting /memories/pets.md permanently needs a confirmation: run it on a terminal, or add --yes.',
    );
    expect(CONFIRMATIONS['memory.delete'].terminal({ path: '/memories/pets.md' }).question).toMatch(
      /^Forget \/memories\/pets\.md\? .*restored\.$/,
    );
    expect(
      CONFIRMATIONS['spaces.delete'].terminal({ name: 'Acme', counts: '2 conversations, 1 memory file' }),
    ).toEqual({
      question: 'Delete the space Acme (2 conversations, 1 memory file)? It stays in the trash for 30 days.',
      declined: 'Nothing was deleted.',
      noTerminal: 'Deleting the space Acme needs a confirmation: run it on a terminal, or add --yes.',
    });
  });
});

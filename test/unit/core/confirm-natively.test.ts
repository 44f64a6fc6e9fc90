import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { confirmNatively } from '../../../electron/core/confirm.js';
import { TABLE, whoConfirms, type DestructiveAction } from '../../../shared/confirmations.js';
import { ContractError } from '../../../shared/errors.js';

/** A host whose native box records what it was asked and answers `answer`. */
function recordingHost(answer: boolean) {
  const asked: string[] = [];
  return {
    asked,
    confirm: async (request: { message: string }) => {
      asked.push(request.message);
      return answer;
    },
  };
}

const pageOnly = (Object.keys(TABLE) as DestructiveAction[]).filter((a) => TABLE[a].native === null);

describe('the main side asks natively exactly where shared/confirmations.ts says so', () => {
  it('asks for a memory path exactly when whoConfirms says the host asks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('memory.delete' as const, 'memory.forget' as const),
        fc.stringMatching(/^\/memories(\/[a-z0-9]{1,8}){1,3}$/),
        fc.option(fc.nat(50), { nil: undefined }),
        async (action, path, folderFiles) => {
          const host = recordingHost(true);
          const target = { path, folderFiles };
          await confirmNatively(host, action, () => target);
          const expected = whoConfirms(action, target, true) === 'host';
          expect(host.asked).toEqual(expected ? [TABLE[action].native?.(target)?.message] : []);
        },
      ),
    );
  });

  it('a cancelled box stops the channel with the entry’s message', async () => {
    const host = recordingHost(false);
    const run = confirmNatively(host, 'memory.forget', () => ({ path: '/memories/a.md' }));
    await expect(run).rejects.toThrow(ContractError);
    await expect(run).rejects.toThrow(TABLE['memory.forget'].cancelled);
  });

  it('never asks for the actions the page confirms, and never without a native box', async () => {
    // Six since the rewrite of the remote's history after a forget stopped being a choice of its own.
    expect(pageOnly.length).toBeGreaterThanOrEqual(6);
    expect(pageOnly).toContain('memory.importApply');
    const host = recordingHost(false);
    for (const action of pageOnly)
      await (confirmNatively as (h: typeof host, a: string) => Promise<void>)(host, action);
    expect(host.asked).toEqual([]);
    // Browser mode: no host.confirm at all, so the page's dialog is the only one.
    await confirmNatively({}, 'memory.forget', () => ({ path: '/memories/a.md' }));
  });
});

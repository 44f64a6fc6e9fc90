// "A backend that must implement every handler (a missing one fails to compile)" (issue 2, point 2).
// The @ts-expect-error lines are checked by `npm run typecheck`: if `Handlers` ever stopped requiring
// every channel, or stopped checking results, those lines would no longer be errors and the typecheck
// fails. At run time, the real backend answers every channel of the contract and nothing else.
import { describe, expect, it } from 'vitest';
import { eventNames, invokeNames, type Handlers } from '../../../shared/contract.js';
import { startBackend } from './backend.js';

function withoutChatSend(full: Handlers) {
  const { 'chat.send': _omitted, ...rest } = full;
  // @ts-expect-error a backend without chat.send must not compile
  const incomplete: Handlers = rest;
  return incomplete;
}

function withWrongResult(full: Handlers): Handlers {
  return {
    ...full,
    // @ts-expect-error a handler must answer with its channel's result shape
    'chat.abort': async () => ({ aborted: 'yes' }),
  };
}

describe('the contract and the backend', () => {
  it('the real backend has exactly one handler per invoke channel', async () => {
    const backend = await startBackend();
    try {
      const names = Object.keys(backend.core.handlers).sort();
      expect(names).toEqual([...invokeNames].sort());
      for (const name of invokeNames) expect(typeof backend.core.handlers[name], name).toBe('function');
      // The handlers the foundation names are all there.
      expect(invokeNames).toEqual(
        expect.arrayContaining(['chat.send', 'chat.abort', 'chat.attach', 'settings.get', 'settings.set']),
      );
      expect(eventNames).toContain('chat.event');
      // The type-level checks above are real functions; calling them keeps them from being dead code.
      expect(Object.keys(withoutChatSend(backend.core.handlers))).not.toContain('chat.send');
      expect(Object.keys(withWrongResult(backend.core.handlers))).toContain('chat.abort');
    } finally {
      await backend.close();
    }
  });
});

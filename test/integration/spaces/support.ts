// Running chats in a named space of a real backend (createCore) against the fake Messages API: the
// space's own bus carries its run events, so a test waits on those and sees nothing of other spaces.
import type { RunEvent } from '../../../shared/channels/chat.js';
import type { OpenSpace } from '../../../electron/core/spaces/index.js';
import { call } from '../agent/harness.js';

/** Every chat.event on a space's bus, with a wait for one run's end. */
export function follow(space: OpenSpace): {
  events: RunEvent[];
  finished(runId: string): Promise<RunEvent[]>;
} {
  const events: RunEvent[] = [];
  const waiters: { runId: string; resolve: () => void }[] = [];
  space.bus.subscribe((name, payload) => {
    if (name !== 'chat.event') return;
    const e = payload as RunEvent;
    events.push(e);
    if (e.type === 'run.finished') for (const w of waiters.filter((w) => w.runId === e.runId)) w.resolve();
  });
  return {
    events,
    async finished(runId) {
      if (!events.some((e) => e.runId === runId && e.type === 'run.finished')) {
        await new Promise<void>((resolve) => waiters.push({ runId, resolve }));
      }
      return events.filter((e) => e.runId === runId);
    },
  };
}

/** Sends a message in `space` (a new conversation unless one is named) and waits for the run's end. */
export async function sendIn(
  space: OpenSpace,
  followed: ReturnType<typeof follow>,
  text: string,
  options: { conversationId?: string; memory?: boolean } = {},
) {
  const res = await space.handlers['chat.send'](
    {
      text,
      memory: options.memory ?? true,
      ...(options.conversationId ? { conversationId: options.conversationId } : {}),
    },
    call,
  );
  return { res, events: await followed.finished(res.runId) };
}

export const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

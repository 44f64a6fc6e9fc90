// Shared by the recall integration tests: a send that waits for the run (the scripted model is in
// test/fixtures/recall-model.ts, shared with the end-to-end test).
import type { RunEvent } from '../../../shared/channels/chat.js';
import type { Handlers } from '../../../shared/contract.js';
import { call, textOf } from './harness.js';

/** Sends in a space's handlers and waits for the run's end on that space's bus. */
export async function ask(
  handlers: Handlers,
  bus: { subscribe(fn: (name: string, payload: unknown) => void): () => void },
  message: string,
  memory = true,
): Promise<{ answer: string; events: RunEvent[]; conversationId: string }> {
  const events: RunEvent[] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  let runId = '';
  const off = bus.subscribe((name, payload) => {
    if (name !== 'chat.event') return;
    const e = payload as RunEvent;
    events.push(e);
    if (e.type === 'run.finished' && e.runId === runId) done();
  });
  const res = await handlers['chat.send']({ text: message, memory }, call);
  runId = res.runId;
  if (events.some((e) => e.type === 'run.finished' && e.runId === runId)) done();
  await finished;
  off();
  const mine = events.filter((e) => e.runId === runId);
  return { answer: textOf(mine), events: mine, conversationId: res.conversationId };
}

// Shared by the recall tests: a model that answers QUESTION by searching past conversations
// (conversation_search) and answering from what the search found, and a send that waits for the run.
import type { RunEvent } from '../../../shared/channels/chat.js';
import type { Handlers } from '../../../shared/contract.js';
import { type FakeAnthropic, text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { call, textOf } from './harness.js';

export const QUESTION = 'Which restaurant did I mention before?';

/** The model: asked the question, it searches; given the result, it answers from it. */
export function scriptModel(fake: FakeAnthropic): void {
  fake.rule((req) => {
    const body = req.body as { messages: { content: unknown }[] };
    const last = body.messages.at(-1)!;
    const blocks = Array.isArray(last.content) ? (last.content as { type: string; content?: unknown }[]) : [];
    // The memory backfill is a tool result too: only the answer to a recall call counts.
    const result = blocks.find(
      (b) =>
        b.type === 'tool_result' && /past conversations|no tool named/.test(JSON.stringify(b.content ?? '')),
    );
    if (result) {
      const said = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
      const name = /restaurant called ([A-Z][a-z]+ [A-Z][a-z]+)/.exec(said)?.[1];
      return text(name ? `You mentioned ${name}.` : 'I found nothing about a restaurant.');
    }
    if (JSON.stringify(body.messages).includes(QUESTION))
      return toolUse({ name: 'conversation_search', input: { query: 'restaurants' } });
    return undefined;
  });
}

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

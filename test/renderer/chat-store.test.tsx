// The chat slice against the scripted backend through the real bridge (events batched per frame): sending,
// streaming, a run whose events arrive before chat.send answers, a gap healed by chat.attach, a reload
// that re-attaches, and the optimistic actions (pin, retry, regenerate, edit-and-resend).
import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../renderer/api';
import { startBridge } from '../../renderer/store/bridge';
import { useChat } from '../../renderer/store/chat';
import { useToasts } from '../../renderer/store/toast';
import { createChatBackend, emitMemoryWrite, type ChatBackend } from './chat-backend';

let backend: ChatBackend;
let stop: () => void;

function texts(): string[] {
  return useChat.getState().items.map((i) => ('text' in i ? `${i.kind}:${i.text}` : i.kind));
}

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  backend = createChatBackend();
  setApi(backend.api);
  stop = startBridge(backend.api);
  useToasts.setState({ toasts: [] });
  await useChat.getState().open(null);
});

afterEach(() => {
  stop();
  setApi(null);
});

describe('the chat slice', () => {
  it('sends, streams the answer token by token, and finishes', async () => {
    const sent = useChat.getState().send('hello');
    // The user's turn shows at once, before the backend answers.
    expect(texts()).toEqual(['user:hello']);
    expect(await sent).toBe(true);
    const run = backend.lastRun();
    expect(useChat.getState().conversationId).toBe(run.conversationId);
    expect(useChat.getState().activeRunId).toBe(run.runId);

    run.emit({ type: 'text.delta', messageId: 'a1', text: 'Hel' });
    await waitFor(() => expect(texts()).toEqual(['user:hello', 'assistant:Hel']));
    run.emit({ type: 'text.delta', messageId: 'a1', text: 'lo!' });
    run.emit({ type: 'message.done', messageId: 'a1', interrupted: false });
    run.finish();
    await waitFor(() => expect(useChat.getState().activeRunId).toBeNull());
    expect(texts()).toEqual(['user:hello', 'assistant:Hello!']);
    const user = useChat.getState().items[0];
    expect(user).toMatchObject({ id: expect.stringMatching(/^user-/) });
    expect(user).not.toHaveProperty('pending');
    expect(backend.callsTo('chat.send')).toEqual([{ text: 'hello', memory: true }]);
  });

  it('adopts events of a new conversation that arrive before chat.send answers', async () => {
    backend.impl['chat.send'] = async (req) => {
      const res = await backendSend(req.text);
      // Stream a little before answering, as a fast backend can.
      backend.lastRun().emit({ type: 'text.delta', messageId: 'a1', text: 'Early ' });
      await backend.settle();
      await new Promise((r) => setTimeout(r, 40));
      return res;
    };
    await useChat.getState().send('hi');
    backend.lastRun().emit({ type: 'text.delta', messageId: 'a1', text: 'bird' });
    await waitFor(() => expect(texts()).toEqual(['user:hi', 'assistant:Early bird']));
  });

  it('a temporary chat is sent with memory off', async () => {
    await useChat.getState().open(null, { memory: false });
    await useChat.getState().send('secret');
    expect(backend.callsTo('chat.send')).toEqual([{ text: 'secret', memory: false }]);
  });

  it('heals a gap in the seq numbers with chat.attach from the last seq seen', async () => {
    await useChat.getState().send('hello');
    const run = backend.lastRun();
    run.emit({ type: 'text.delta', messageId: 'a1', text: 'one ' });
    await waitFor(() => expect(texts()).toContain('assistant:one '));
    const seen = run.events.length;
    run.emitHidden({ type: 'text.delta', messageId: 'a1', text: 'two ' });
    run.emit({ type: 'text.delta', messageId: 'a1', text: 'three' });
    await waitFor(() => expect(texts()).toContain('assistant:one two three'));
    expect(backend.callsTo('chat.attach')).toContainEqual({ runId: run.runId, afterSeq: seen });
  });

  it('after a reload, restores the conversation and re-attaches to the running run', async () => {
    await useChat.getState().send('hello');
    const run = backend.lastRun();
    run.emit({ type: 'text.delta', messageId: 'a1', text: 'Before the reload, ' });
    await waitFor(() => expect(texts()).toContain('assistant:Before the reload, '));
    // The backend has persisted the user's turn; the answer is still streaming.
    const userId = useChat.getState().items[0]!.id;
    backend.conversations.get(run.conversationId)!.items = [
      { kind: 'user', id: userId, text: 'hello', pinned: false },
    ];

    // A reload: the store starts empty and restores from sessionStorage.
    stop();
    useChat.setState({ conversationId: null, items: [], runs: {}, activeRunId: null });
    stop = startBridge(backend.api);
    await useChat.getState().restore();
    expect(useChat.getState().conversationId).toBe(run.conversationId);
    expect(texts()).toEqual(['user:hello', 'assistant:Before the reload, ']);
    expect(useChat.getState().activeRunId).toBe(run.runId);

    run.emit({ type: 'text.delta', messageId: 'a1', text: 'and after.' });
    run.finish();
    await waitFor(() => expect(texts()).toEqual(['user:hello', 'assistant:Before the reload, and after.']));
    await waitFor(() => expect(useChat.getState().activeRunId).toBeNull());
  });

  it('after a transport reconnect, fetches what the run emitted meanwhile', async () => {
    await useChat.getState().send('hello');
    const run = backend.lastRun();
    run.emit({ type: 'text.delta', messageId: 'a1', text: 'a' });
    await waitFor(() => expect(texts()).toContain('assistant:a'));
    run.emitHidden({ type: 'text.delta', messageId: 'a1', text: 'b' });
    run.emitHidden({ type: 'message.done', messageId: 'a1', interrupted: false });
    await useChat.getState().resync();
    expect(texts()).toContain('assistant:ab');
    expect(backend.callsTo('chat.attach').at(-1)).toEqual({ runId: run.runId, afterSeq: 2 });
  });

  it('stop aborts the active run and marks the answer as stopped', async () => {
    await useChat.getState().send('hello');
    const run = backend.lastRun();
    run.emit({ type: 'text.delta', messageId: 'a1', text: 'Half' });
    await waitFor(() => expect(texts()).toContain('assistant:Half'));
    await useChat.getState().stop();
    expect(backend.callsTo('chat.abort')).toEqual([{ runId: run.runId }]);
    await waitFor(() => expect(useChat.getState().activeRunId).toBeNull());
    expect(useChat.getState().items[1]).toMatchObject({ interrupted: true, streaming: false });
  });

  it('Retry removes the error card and adopts the new run', async () => {
    await useChat.getState().send('hello');
    const first = backend.lastRun();
    first.emit({ type: 'run.error', kind: 'overloaded', message: 'Overloaded. Try again.', retryable: true });
    first.finish('error');
    await waitFor(() => expect(useChat.getState().items.some((i) => i.kind === 'error')).toBe(true));
    const errorItem = useChat.getState().items.find((i) => i.kind === 'error')!;
    await useChat.getState().retry(errorItem.id);
    expect(useChat.getState().items.some((i) => i.kind === 'error')).toBe(false);
    const second = backend.lastRun();
    expect(second.runId).not.toBe(first.runId);
    second.emit({ type: 'text.delta', messageId: 'a2', text: 'Better now.' });
    await waitFor(() => expect(texts()).toEqual(['user:hello', 'assistant:Better now.']));
  });

  it('regenerate drops the last answer locally and streams the new one in its place', async () => {
    await useChat.getState().send('hello');
    const first = backend.lastRun();
    first.emit({ type: 'text.delta', messageId: 'a1', text: 'First answer' });
    first.finish();
    await waitFor(() => expect(useChat.getState().activeRunId).toBeNull());
    await useChat.getState().regenerate();
    expect(texts()).toEqual(['user:hello']);
    backend.lastRun().emit({ type: 'text.delta', messageId: 'a2', text: 'Second answer' });
    await waitFor(() => expect(texts()).toEqual(['user:hello', 'assistant:Second answer']));
    expect(backend.callsTo('chat.regenerate')).toEqual([{ conversationId: first.conversationId }]);
  });

  it('edit-and-resend replaces the message and everything after it', async () => {
    await useChat.getState().send('hello');
    const first = backend.lastRun();
    first.emit({ type: 'text.delta', messageId: 'a1', text: 'Hi!' });
    first.finish();
    await waitFor(() => expect(useChat.getState().activeRunId).toBeNull());
    const userId = useChat.getState().items[0]!.id;
    expect(await useChat.getState().editResend(userId, 'hello again')).toBe(true);
    const second = backend.lastRun();
    second.emit({ type: 'run.started', userMessageId: 'user-edited' });
    second.emit({ type: 'text.delta', messageId: 'a2', text: 'Hi again!' });
    await waitFor(() => expect(texts()).toEqual(['user:hello again', 'assistant:Hi again!']));
    expect(useChat.getState().items[0]!.id).toBe('user-edited');
    expect(backend.callsTo('chat.editResend')).toEqual([
      { conversationId: first.conversationId, messageId: userId, text: 'hello again' },
    ]);
  });

  it('pin is optimistic and rolls back (with a toast) when the backend refuses', async () => {
    await useChat.getState().send('hello');
    const userId = useChat.getState().items[0]!.id;
    await useChat.getState().pin(userId, true);
    expect(useChat.getState().items[0]).toMatchObject({ pinned: true });
    backend.impl['chat.pin'] = () => {
      throw new Error('The conversation is busy.');
    };
    await useChat.getState().pin(userId, false);
    expect(useChat.getState().items[0]).toMatchObject({ pinned: true });
    expect(useToasts.getState().toasts.map((t) => t.message)).toContain('The conversation is busy.');
  });

  it('a refused send removes the optimistic turn and says why', async () => {
    backend.impl['chat.send'] = () => {
      throw new Error('Set an API key first.');
    };
    expect(await useChat.getState().send('hello')).toBe(false);
    expect(texts()).toEqual([]);
    expect(useToasts.getState().toasts.map((t) => t.message)).toEqual(['Set an API key first.']);
  });

  it('a memory write by the agent comes with its journal entry, in its result: a card with Undo', async () => {
    // (It pinned memory.changed making a chat card of its own; the entry now travels in the run's events.)
    await useChat.getState().send('remember tea');
    const run = backend.lastRun();
    const input = { command: 'create', path: '/memories/preferences.md', file_text: '- tea\n' };
    emitMemoryWrite(run, 'tw1', input, 'j1');
    // The memory panel's event is not the chat's: no card of its own, nothing changed.
    backend.emit('memory.changed', {
      actor: 'agent',
      command: 'create',
      path: '/memories/preferences.md',
      journalId: 'j1',
      conversationId: run.conversationId,
    });
    const tool = () => useChat.getState().items.find((i) => i.kind === 'tool');
    await waitFor(() => expect(tool()).toMatchObject({ journalId: 'j1' }));
    await backend.settle();
    expect(useChat.getState().items.map((i) => i.kind)).toEqual(['user', 'tool']);
    await useChat.getState().revertMemory('j1');
    expect(backend.callsTo('memory.revert')).toEqual([{ journalId: 'j1' }]);
    expect(tool()).toMatchObject({ reverted: true });
  });
});

/** The default chat.send of the scripted backend, for overrides that wrap it. */
async function backendSend(text: string) {
  const saved = backend.impl['chat.send'];
  delete backend.impl['chat.send'];
  try {
    return await backend.api['chat.send']({ text });
  } finally {
    backend.impl['chat.send'] = saved;
  }
}

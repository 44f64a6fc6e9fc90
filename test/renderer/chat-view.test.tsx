// The chat pane's components against the scripted backend: the message box (Enter, Shift+Enter, Stop,
// Escape), per-message actions (pin, regenerate only on the last answer, edit and resend), and the inline
// cards (tool call, error with Retry, review with Approve/Edit/Reject, memory change with Undo).
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../renderer/api';
import { ChatView } from '../../renderer/features/chat/chat-view';
import { startBridge } from '../../renderer/store/bridge';
import { useChat } from '../../renderer/store/chat';
import { createChatBackend, emitMemoryWrite, type ChatBackend } from './chat-backend';
import { installLayoutShim } from './layout-shim';

let backend: ChatBackend;
let stop: () => void;
let removeShim: () => void;

beforeAll(() => {
  removeShim = installLayoutShim();
});
afterAll(() => removeShim());

beforeEach(async () => {
  sessionStorage.clear();
  backend = createChatBackend();
  setApi(backend.api);
  stop = startBridge(backend.api);
  await useChat.getState().open(null);
});

afterEach(() => {
  cleanup();
  stop();
  setApi(null);
});

const messageBox = (): HTMLTextAreaElement => screen.getByRole('textbox', { name: 'Message' });

async function sendAndAnswer(text: string, answer: string): Promise<void> {
  fireEvent.change(messageBox(), { target: { value: text } });
  fireEvent.keyDown(messageBox(), { key: 'Enter' });
  await waitFor(() => expect(useChat.getState().activeRunId).not.toBeNull());
  const run = backend.lastRun();
  run.emit({ type: 'text.delta', messageId: `a-${run.runId}`, text: answer });
  run.emit({ type: 'message.done', messageId: `a-${run.runId}`, interrupted: false });
  run.finish();
  await waitFor(() => expect(useChat.getState().activeRunId).toBeNull());
}

describe('the message box', () => {
  it('Enter sends, Shift+Enter does not, and Stop replaces Send while a run streams', async () => {
    render(<ChatView />);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(messageBox(), { target: { value: 'line one' } });
    fireEvent.keyDown(messageBox(), { key: 'Enter', shiftKey: true });
    expect(backend.callsTo('chat.send')).toEqual([]);

    fireEvent.keyDown(messageBox(), { key: 'Enter' });
    expect(messageBox().value).toBe('');
    const stopButton = await screen.findByRole('button', { name: 'Stop' });
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(backend.callsTo('chat.send')).toEqual([{ text: 'line one', memory: true }]);

    const run = backend.lastRun();
    run.emit({ type: 'text.delta', messageId: 'a1', text: 'Streaming…' });
    const log = screen.getByRole('log', { name: 'Conversation' });
    await waitFor(() =>
      expect(within(log).getByRole('article', { name: 'Mnemo' })?.textContent).toContain('Streaming…'),
    );

    fireEvent.click(stopButton);
    await waitFor(() => expect(backend.callsTo('chat.abort')).toEqual([{ runId: run.runId }]));
    await screen.findByRole('button', { name: 'Send' });
    expect(within(log).getByRole('article', { name: 'Mnemo' })?.textContent).toContain('Stopped');
  });

  it('Escape in the message box stops the run', async () => {
    render(<ChatView />);
    fireEvent.change(messageBox(), { target: { value: 'go' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByRole('button', { name: 'Stop' });
    fireEvent.keyDown(messageBox(), { key: 'Escape' });
    await waitFor(() => expect(backend.callsTo('chat.abort')).toHaveLength(1));
  });

  it('a refused send puts the text back in the box', async () => {
    backend.impl['chat.send'] = () => {
      throw new Error('No API key.');
    };
    render(<ChatView />);
    fireEvent.change(messageBox(), { target: { value: 'keep me' } });
    fireEvent.keyDown(messageBox(), { key: 'Enter' });
    await waitFor(() => expect(messageBox().value).toBe('keep me'));
  });
});

describe('message actions', () => {
  it('pins, regenerates only the last answer, and edits and resends a user message', async () => {
    render(<ChatView />);
    await sendAndAnswer('first', 'Answer one');
    await sendAndAnswer('second', 'Answer two');
    const log = screen.getByRole('log', { name: 'Conversation' });
    const answers = within(log).getAllByRole('article', { name: 'Mnemo' });
    expect(answers).toHaveLength(2);
    expect(within(answers[0]!).queryByRole('button', { name: 'Regenerate' })).toBeNull();
    expect(
      (within(answers[1]!).getByRole('button', { name: 'Regenerate' }) as HTMLButtonElement).disabled,
    ).toBe(false);

    const pin = within(answers[0]!).getByRole('button', { name: 'Pin' });
    fireEvent.click(pin);
    await waitFor(() =>
      expect(within(answers[0]!).getByRole('button', { name: 'Unpin' }).getAttribute('aria-pressed')).toBe(
        'true',
      ),
    );
    const conversationId = useChat.getState().conversationId!;
    const answerId = useChat.getState().items.find((i) => i.kind === 'assistant')!.id;
    expect(backend.callsTo('chat.pin')).toEqual([{ conversationId, messageId: answerId, pinned: true }]);

    fireEvent.click(within(answers[1]!).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(backend.callsTo('chat.regenerate')).toEqual([{ conversationId }]));
    await waitFor(() => expect(within(log).getAllByRole('article', { name: 'Mnemo' })).toHaveLength(1));
    const regen = backend.lastRun();
    regen.emit({ type: 'text.delta', messageId: 'a-regen', text: 'Answer two, again' });
    regen.finish();
    await waitFor(() =>
      expect(within(log).getAllByRole('article', { name: 'Mnemo' })[1]?.textContent).toContain(
        'Answer two, again',
      ),
    );

    const firstUser = within(log).getAllByRole('article', { name: 'You' })[0]!;
    fireEvent.click(within(firstUser).getByRole('button', { name: 'Edit' }));
    const editor = screen.getByRole('textbox', { name: 'Edited message' });
    fireEvent.change(editor, { target: { value: 'first, edited' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and resend' }));
    await waitFor(() => expect(backend.callsTo('chat.editResend')).toHaveLength(1));
    await waitFor(() => expect(within(log).getAllByRole('article', { name: 'You' })).toHaveLength(1));
    expect(within(log).getByRole('article', { name: 'You' })?.textContent).toContain('first, edited');
    expect(within(log).queryAllByRole('article', { name: 'Mnemo' })).toHaveLength(0);
  });
});

describe('inline cards', () => {
  it('a tool call is one line, expands to input and result, and marks errors', async () => {
    render(<ChatView />);
    await act(() => useChat.getState().send('remember'));
    const run = backend.lastRun();
    run.emit({
      type: 'tool.call',
      toolUseId: 't1',
      name: 'memory',
      input: { command: 'create', path: '/memories/preferences.md', file_text: '- tea' },
      turn: 1,
    });
    run.emit({
      type: 'tool.result',
      toolUseId: 't1',
      name: 'memory',
      result: 'File exists.',
      isError: true,
      durationMs: 12,
    });
    const toggle = await screen.findByRole('button', { name: /memory · create \/memories\/preferences\.md/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await waitFor(() => expect(toggle?.textContent).toContain('Error'));
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText(/"file_text": "- tea"/)).toBeTruthy();
    expect(screen.getByText('File exists.')).toBeTruthy();
  });

  it('an error shows inline with Retry', async () => {
    render(<ChatView />);
    await act(() => useChat.getState().send('hello'));
    const run = backend.lastRun();
    run.emit({
      type: 'run.error',
      kind: 'rate_limit',
      message: 'Rate limited. Try again in a minute.',
      retryable: true,
    });
    run.finish('error');
    const alert = await screen.findByRole('alert');
    expect(alert?.textContent).toContain('Rate limited. Try again in a minute.');
    await waitFor(() =>
      expect((within(alert).getByRole('button', { name: 'Retry' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(backend.callsTo('chat.retry')).toEqual([{ conversationId: run.conversationId }]),
    );
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('a review card approves, or edits the content before approving', async () => {
    render(<ChatView />);
    await act(() => useChat.getState().send('remember'));
    const run = backend.lastRun();
    run.emit({
      type: 'review.request',
      reviewId: 'rv1',
      toolUseId: 't1',
      command: 'create',
      path: '/memories/p.md',
      before: null,
      after: '- likes tea\n',
    });
    run.emit({
      type: 'review.request',
      reviewId: 'rv2',
      toolUseId: 't2',
      command: 'str_replace',
      path: '/memories/q.md',
      before: 'old\n',
      after: 'new\n',
    });
    const cards = await screen.findAllByRole('region', { name: 'Memory change to review' });
    expect(cards).toHaveLength(2);
    expect(
      within(cards[0]!).getByRole('figure', { name: 'Proposed change to /memories/p.md' })?.textContent,
    ).toContain('likes tea');
    fireEvent.click(within(cards[0]!).getByRole('button', { name: 'Approve' }));
    fireEvent.click(within(cards[1]!).getByRole('button', { name: 'Edit' }));
    fireEvent.change(within(cards[1]!).getByRole('textbox', { name: 'Content to write' }), {
      target: { value: 'newer\n' },
    });
    fireEvent.click(within(cards[1]!).getByRole('button', { name: 'Save and approve' }));
    await waitFor(() =>
      expect(backend.callsTo('chat.review')).toEqual([
        { reviewId: 'rv1', decision: 'approve' },
        { reviewId: 'rv2', decision: 'edit', content: 'newer\n' },
      ]),
    );
    run.emit({ type: 'review.resolved', reviewId: 'rv1', outcome: 'approved' });
    await waitFor(() => expect(cards[0]?.textContent).toContain('Approved'));
    expect(within(cards[0]!).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('a memory change shows its diff and can be undone', async () => {
    backend.impl['memory.diff'] = () => ({
      path: '/memories/p.md',
      before: 'a\n',
      after: 'a\nb\n',
      patch: '',
    });
    render(<ChatView />);
    await act(() => useChat.getState().send('remember'));
    // (It pinned memory.changed making the card; the journal entry now comes with the call's result.)
    const run = backend.lastRun();
    const input = { command: 'str_replace', path: '/memories/p.md', old_str: 'a', new_str: 'a\nb' };
    emitMemoryWrite(run, 'tw7', input, 'j7');
    const card = await screen.findByRole('region', { name: 'Memory · Edited /memories/p.md' });
    fireEvent.click(within(card).getByRole('button', { name: /Memory · Edited/ }));
    const diff = await within(card).findByRole('figure', { name: 'Changes to /memories/p.md' });
    expect(diff?.textContent).toContain('+1');
    expect(diff?.textContent).toContain('added: b');
    fireEvent.click(within(card).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(backend.callsTo('memory.revert')).toEqual([{ journalId: 'j7' }]));
    await waitFor(() => expect(card?.textContent).toContain('Undone'));
  });

  it('a memory write by a tool call is one card with its diff and Undo, live or reloaded', async () => {
    backend.impl['memory.diff'] = () => ({
      path: '/memories/p.md',
      before: null,
      after: '- tea\n',
      patch: '',
    });
    render(<ChatView />);
    await act(() => useChat.getState().send('remember tea'));
    const run = backend.lastRun();
    const input = { command: 'create', path: '/memories/p.md', file_text: '- tea\n' };
    emitMemoryWrite(run, 'tw1', input, 'j9');
    const card = await screen.findByRole('region', { name: 'Memory · Created /memories/p.md' });
    await backend.settle();
    expect(screen.getAllByRole('region', { name: /Memory ·/ })).toHaveLength(1);
    fireEvent.click(within(card).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(backend.callsTo('memory.revert')).toEqual([{ journalId: 'j9' }]));
    run.finish();

    // Reopened from the transcript: the journal entry is found in the file's history by its tool-use id.
    backend.conversations.get(run.conversationId)!.items = [
      { kind: 'user', id: 'u1', text: 'remember tea', pinned: false },
      {
        kind: 'tool',
        id: 'tool:tw1',
        toolUseId: 'tw1',
        name: 'memory',
        input,
        result: 'Created.',
        isError: false,
        durationMs: 5,
        at: 'x',
      },
    ];
    backend.impl['memory.history'] = () => ({
      entries: [
        {
          id: 'j9',
          at: 'x',
          actor: 'agent',
          command: 'create',
          path: '/memories/p.md',
          beforeHash: null,
          afterHash: 'h',
          toolUseId: 'tw1',
          revertible: true,
        },
      ],
    });
    await act(() => useChat.getState().open(run.conversationId));
    const reloaded = await screen.findByRole('region', { name: 'Memory · Created /memories/p.md' });
    fireEvent.click(within(reloaded).getByRole('button', { name: /Memory · Created/ }));
    const diff = await within(reloaded).findByRole('figure', { name: 'Changes to /memories/p.md' });
    expect(diff.textContent).toContain('added: - tea');
    fireEvent.click(within(reloaded).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(backend.callsTo('memory.revert')).toHaveLength(2));
    expect(backend.callsTo('memory.history')).toEqual([{ path: '/memories/p.md' }]);
  });
});

function seedLong(conversationId: string): void {
  backend.conversations.set(conversationId, {
    summary: {
      id: conversationId,
      title: 'Long',
      createdAt: 'x',
      updatedAt: 'x',
      memory: true,
      messageCount: 2000,
    },
    items: Array.from({ length: 2000 }, (_, i) =>
      i % 2 === 0
        ? { kind: 'user' as const, id: `u${i}`, text: `Question ${i}`, pinned: false }
        : {
            kind: 'assistant' as const,
            id: `a${i}`,
            text: `Answer ${i}`,
            streaming: false,
            pinned: false,
            interrupted: false,
          },
    ),
  });
}

describe('a long conversation', () => {
  it('keeps only the rows near the viewport in the DOM (2,000 messages)', async () => {
    const offset = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetHeight');
    // Every row measures 100px in a 800px viewport (jsdom has no layout of its own).
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', { configurable: true, get: () => 100 });
    try {
      const conversationId = 'long';
      seedLong(conversationId);
      await act(() => useChat.getState().open(conversationId));
      render(<ChatView />);
      const log = screen.getByRole('log', { name: 'Conversation' });
      await waitFor(() => expect(within(log).getAllByRole('article').length).toBeGreaterThan(0));
      const rendered = within(log).getAllByRole('article').length;
      expect(rendered).toBeLessThan(40);
      // It opens at the end, where the reader is going: the last rows are there, the first are not.
      expect(log.textContent).toContain('Answer 1999');
      expect(log.textContent).not.toContain('Question 0 ');
    } finally {
      if (offset) Object.defineProperty(HTMLElement.prototype, 'offsetHeight', offset);
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>).offsetHeight;
    }
  });
});

// The Context tab: the meter's parts and triggers as accessible text, the history, Compact now, and
// refresh on context.changed, and the notice when compaction cannot help.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../renderer/api';
import { ContextPanel } from '../../renderer/features/context';
import { meterModel } from '../../renderer/features/context/meter';
import { stuckHelp } from '../../shared/projection/cards';
import { startBridge } from '../../renderer/store/bridge';
import { resetContextStore } from '../../renderer/store/context';
import { useChat } from '../../renderer/store/chat';
import { callsTo, createFakeBackend, type FakeBackend } from './memory-fake-backend';

let backend: FakeBackend;
let unbind: () => void;

beforeEach(() => {
  resetContextStore();
  backend = createFakeBackend();
  setApi(backend.api);
  // context.changed and run events, through the bridge (run events: its one batched router).
  unbind = startBridge(backend.api);
  useChat.setState({ conversationId: 'c1', activeRunId: null });
});
afterEach(() => {
  unbind();
  cleanup();
  setApi(null);
  useChat.setState({ conversationId: null });
});

describe('the meter model', () => {
  it('scales to the window, places the triggers and never overflows', () => {
    const model = meterModel({
      ...backend.usage,
      total: 250_000,
      parts: { system: 100_000, memory: 100_000, messages: 100_000, toolResults: 0 },
    });
    expect(model.scale).toBe(200_000);
    expect(model.segments.reduce((n, s) => n + s.percent, 0)).toBeCloseTo(100);
    expect(model.markers.map((m) => [m.key, m.percent])).toEqual([
      ['clear', 50],
      ['compact', 75],
    ]);
    const unknown = meterModel({ ...backend.usage, contextWindow: null });
    expect(unknown.scaleIsWindow).toBe(false);
    expect(unknown.scale).toBe(187_500);
  });
});

describe('the Context tab', () => {
  it('shows the parts, the triggers and the history as text', async () => {
    backend.usage.history = [
      {
        at: '2026-03-01T12:00:00Z',
        kind: 'cleared',
        strategy: 'native',
        tokensBefore: 120_000,
        tokensAfter: 90_000,
        detail: 'Cleared 5 tool results',
      },
      {
        at: '2026-03-01T13:00:00Z',
        kind: 'compacted',
        strategy: 'native',
        tokensBefore: 160_000,
        tokensAfter: 12_000,
        detail: '',
      },
    ];
    render(<ContextPanel />);
    const panel = screen.getByRole('region', { name: 'Context' });
    const meter = await within(panel).findByRole('meter', { name: 'Context used' });
    expect(meter.getAttribute('aria-valuetext')).toBe('50k of 200k tokens (25%)');
    const legend = within(panel).getByRole('list', { name: 'Context parts' });
    expect(legend.textContent).toContain('Messages33k');
    expect(legend.textContent).toContain('Tool results10k');
    expect(legend.textContent).toContain('Compaction at150k');
    const history = within(panel).getByRole('region', { name: 'Clearing and compaction history' });
    const items = within(history)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items[0]).toContain('Compacted160k → 12k tokens');
    expect(items[1]).toContain('Cleared120k → 90k tokens');
  });

  it('asks for the meter only once the chat has opened the conversation', async () => {
    useChat.setState({ loading: true });
    render(<ContextPanel />);
    const panel = screen.getByRole('region', { name: 'Context' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(callsTo(backend, 'context.get')).toEqual([]);
    act(() => useChat.setState({ loading: false }));
    expect(await within(panel).findByRole('meter', { name: 'Context used' })).toBeTruthy();
    expect(callsTo(backend, 'context.get')).toEqual([{ conversationId: 'c1' }]);
  });

  it('Compact now starts a compaction run and waits for it to finish', async () => {
    render(<ContextPanel />);
    const panel = screen.getByRole('region', { name: 'Context' });
    const button = await within(panel).findByRole('button', { name: 'Compact now' });
    fireEvent.click(button);
    await within(panel).findByRole('button', { name: 'Compacting…' });
    expect(callsTo(backend, 'context.compact')).toEqual([{ conversationId: 'c1' }]);
    backend.usage = { ...backend.usage, total: 9_000 };
    act(() =>
      backend.emit('chat.event', {
        type: 'run.finished',
        runId: 'r-compact',
        conversationId: 'c1',
        seq: 3,
        status: 'done',
      }),
    );
    await within(panel).findByRole('button', { name: 'Compact now' });
    await waitFor(() =>
      expect(within(panel).getByRole('meter').getAttribute('aria-valuetext')).toBe('9k of 200k tokens (5%)'),
    );
  });

  it('follows context.changed', async () => {
    render(<ContextPanel />);
    const panel = screen.getByRole('region', { name: 'Context' });
    await within(panel).findByRole('meter');
    act(() => backend.emit('context.changed', { ...backend.usage, total: 120_000, measured: false }));
    expect(within(panel).getByRole('meter').getAttribute('aria-valuetext')).toBe(
      '120k of 200k tokens (60%), estimated',
    );
  });

  it('says when compaction cannot get under its trigger, and what would help', async () => {
    const paused = stuckHelp({
      kind: 'compaction_stuck',
      strategy: 'local',
      trigger: 20_000,
      budget: 16_000,
      pinnedMessages: 2,
      tokens: 31_000,
      summary: 1_000,
      floor: 27_000,
      memory: 15_000,
      pinned: 6_000,
      kept: 5_000,
    });
    backend.usage = { ...backend.usage, compactTrigger: 20_000, total: 31_000, compactionPaused: paused };
    render(<ContextPanel />);
    const panel = screen.getByRole('region', { name: 'Context' });
    const note = await within(panel).findByRole('note', { name: 'Compaction paused' });
    expect(note.textContent).toBe(
      'Even compacted, the memory given again (15k tokens), pinned messages (6k), the turns kept verbatim ' +
        '(5k) come to about 27k tokens, above the compaction trigger of 20k. To compact again, raise the ' +
        'trigger in Settings, lower the memory budget, or unpin messages.',
    );

    // Raising the trigger (context.changed with no notice) takes the notice away.
    act(() =>
      backend.emit('context.changed', {
        ...backend.usage,
        compactTrigger: 40_000,
        compactionPaused: undefined,
      }),
    );
    expect(within(panel).queryByRole('note', { name: 'Compaction paused' })).toBeNull();
  });
});

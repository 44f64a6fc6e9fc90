// The request's history from a conversation's records: replay (truncate, pins, compactions), local clearing
// placeholders, merged roles, the compaction prefix, trimmed final assistant text, and where local
// compaction may cut (never between a tool_use and its tool_result).
import { describe, expect, it } from 'vitest';
import { chooseCut } from '../../../electron/core/agent/context/cut.js';
import { CLEARED_PLACEHOLDER, buildHistory } from '../../../electron/core/agent/history.js';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';
import { rebuild } from '../../../electron/core/conversations/state.js';
import { validateRequest } from '../../fixtures/fake-anthropic/index.js';

const at = new Date(0).toISOString();
const meta: ConversationRecord = { t: 'meta', v: 1, id: 'c1', title: '', createdAt: at, memory: true };
const user = (id: string, text = id): MessageRecord => ({
  t: 'msg',
  id,
  kind: 'user',
  role: 'user',
  at,
  text,
  content: [{ type: 'text', text }],
});
const answer = (id: string, text = id): MessageRecord => ({
  t: 'msg',
  id,
  kind: 'assistant',
  role: 'assistant',
  at,
  content: [{ type: 'text', text }],
});
const call = (id: string, tool: string): MessageRecord => ({
  t: 'msg',
  id,
  kind: 'assistant',
  role: 'assistant',
  at,
  content: [{ type: 'tool_use', id: tool, name: 'memory_search', input: { query: 'q' } }],
});
const result = (id: string, tool: string): MessageRecord => ({
  t: 'msg',
  id,
  kind: 'tool_results',
  role: 'user',
  at,
  tools: { [tool]: { name: 'memory_search', durationMs: 1, isError: false } },
  content: [{ type: 'tool_result', tool_use_id: tool, content: `result of ${tool}` }],
});
const valid = (messages: unknown[]) => validateRequest({ model: 'm', max_tokens: 10, messages });

describe('buildHistory', () => {
  it('replays truncation and sends cleared results as placeholders that keep the tool_use_id', () => {
    const state = rebuild([
      meta,
      user('u1'),
      call('a1', 'toolu_1'),
      result('r1', 'toolu_1'),
      answer('b1'),
      user('u2'),
      answer('b2'),
      { t: 'truncate', fromMessageId: 'b2', at },
      { t: 'cleared', toolUseIds: ['toolu_1'], tokens: 10, at },
    ])!;
    const { messages } = buildHistory(state);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages[2]!.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: CLEARED_PLACEHOLDER,
    });
    expect(valid(messages)).toBeNull();
  });

  it('merges consecutive user turns (an unanswered, aborted turn) and trims a final assistant text', () => {
    const state = rebuild([
      meta,
      user('u1'),
      user('u2'),
      { ...answer('b1', 'partial answer   '), interrupted: true },
    ])!;
    const { messages } = buildHistory(state);
    expect(messages).toHaveLength(2);
    expect(messages[0]!.content).toHaveLength(2);
    expect(messages[1]!.content[0]).toEqual({ type: 'text', text: 'partial answer' });
  });

  it('puts a local summary and the memory again in front of the kept messages', () => {
    const state = rebuild([
      meta,
      user('u1'),
      answer('b1'),
      user('u2'),
      {
        t: 'compacted',
        strategy: 'local',
        lastMessageId: 'b1',
        summary: 'They said hello.',
        memory: { toolUseId: 'toolu_m', text: 'memory index', files: [], totalFiles: 0, tokens: 3 },
        pinned: 'pinned: u1',
        tokensBefore: 10,
        tokensAfter: 5,
        messagesCompacted: 2,
        at,
      },
    ])!;
    const { messages } = buildHistory(state);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(messages[0])).toContain('They said hello.');
    expect(messages[2]!.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(JSON.stringify(messages[2])).toContain('pinned: u1');
    expect(valid(messages)).toBeNull();
  });

  it('starts at a native compaction block in a reply (the API ignores what came before)', () => {
    const state = rebuild([
      meta,
      user('u1'),
      {
        t: 'msg',
        id: 'c',
        kind: 'assistant',
        role: 'assistant',
        at,
        content: [{ type: 'compaction', content: 'sum', encrypted_content: null }],
      },
      user('u2'),
    ])!;
    const history = buildHistory(state);
    expect(history.compactionBlock).toBe(true);
    expect(history.messages[0]!.content[0]!.type).toBe('compaction');
    expect(valid(history.messages)).toBeNull();
  });
});

describe('chooseCut', () => {
  const messages = [
    user('u1'),
    call('a1', 't1'),
    result('r1', 't1'),
    answer('b1'),
    user('u2'),
    call('a2', 't2'),
    result('r2', 't2'),
  ];
  it('cuts before the last user turn', () => {
    expect(messages[chooseCut(messages, 0, false)]!.id).toBe('b1');
  });
  it('never separates a tool_use from its result', () => {
    const oneTurn = [
      user('u1'),
      ...[1, 2, 3, 4].flatMap((i) => [call(`a${i}`, `t${i}`), result(`r${i}`, `t${i}`)]),
    ];
    const cut = chooseCut(oneTurn, 0, false);
    expect(oneTurn[cut]!.kind).toBe('tool_results');
    expect(oneTurn[cut + 1]!.role).toBe('assistant');
  });
  it('keeps a call with the results recorded after the next user message (a crash mid-tool)', () => {
    const recovered = [
      user('u1'),
      answer('b1'),
      user('u2'),
      call('a2', 't2'),
      user('u3'),
      result('r2', 't2'),
    ];
    expect(recovered[chooseCut(recovered, 0, false)]!.id).toBe('u2');
  });
  it('finds nothing to cut in a short history', () => {
    expect(chooseCut([user('u1'), answer('b1')], 0, false)).toBe(-1);
  });
});

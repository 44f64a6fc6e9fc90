// The terminal face prints a search of past conversations with the card's label and what it found.
import { describe, expect, it } from 'vitest';
import { boundaryRule, dataSection } from '../../../electron/core/agent/data-sections.js';
import { RunPrinter } from '../../../electron/cli-printer.js';

describe('RunPrinter and recall', () => {
  it('prints the label and the titles of the conversations found', () => {
    const lines: string[] = [];
    const printer = new RunPrinter((l) => lines.push(l));
    const b = '0123456789abcdef';
    const section = (title: string) =>
      dataSection(
        'past_message',
        {
          conversation_id: 'c1',
          conversation_title: title,
          date: '2026-11-24T10:00:00.000Z',
          role: 'user',
          message_id: 'm1',
        },
        'the restaurant',
        b,
      );
    const result = [
      '2 messages match',
      boundaryRule('past_message', b),
      section('Dinner'),
      section('Dinner'),
    ].join('\n');
    const base = { runId: 'r', conversationId: 'c', seq: 0 };
    printer.apply({
      ...base,
      type: 'tool.call',
      toolUseId: 't1',
      name: 'conversation_search',
      input: { query: 'restaurant' },
      turn: 1,
      at: '',
    });
    printer.apply({
      ...base,
      type: 'tool.result',
      toolUseId: 't1',
      name: 'conversation_search',
      result,
      isError: false,
      durationMs: 1,
    });
    expect(lines).toEqual([
      '[turn 1] called conversation_search {"query":"restaurant"}',
      '[recall] Searched past conversations for ‘restaurant’ · 2 results: “Dinner”',
    ]);
  });
});

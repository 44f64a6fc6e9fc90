// A card's terminal line comes from the same place as its label (shared/projection/cards.ts): the lines the
// CLI prints today, from the structured fact, and the label (with its detail) for the rest.
import { describe, expect, it } from 'vitest';
import {
  cardDetail,
  cardLabel,
  cardTerminalLine,
  type LabelledCard,
} from '../../../shared/projection/cards.js';

const item = (fact: LabelledCard) => ({
  event: fact.kind,
  text: cardLabel(fact),
  detail: cardDetail(fact),
  fact,
});

describe('cardTerminalLine', () => {
  it.each<[LabelledCard, string]>([
    [
      {
        kind: 'backfill',
        files: [
          { path: '/memories/a.md', tokens: 40 },
          { path: '/memories/b.md', tokens: 2 },
        ],
        totalFiles: 3,
        tokens: 1234,
      },
      '[memory backfill] 2 of 3 files, about 1234 tokens: /memories/a.md, /memories/b.md',
    ],
    [
      { kind: 'backfill', files: [], totalFiles: 4, tokens: 80 },
      '[memory backfill] 0 of 4 files, about 80 tokens: (index only)',
    ],
    [
      { kind: 'cleared', strategy: 'native', count: 5, tokens: 8200, tokensBefore: 9000, tokensAfter: 800 },
      '[tool results cleared] 5 tool results, about 8200 tokens (native)',
    ],
    [
      {
        kind: 'compacted',
        strategy: 'local',
        messages: 14,
        tokensBefore: 41000,
        tokensAfter: 3000,
        summary: 'S',
      },
      '[compaction] 14 messages summarized (local), about 41000 → 3000 tokens',
    ],
    [{ kind: 'turn_limit', turns: 3 }, '[turn limit] stopped after 3 turns'],
    [
      { kind: 'memory_changed', note: 'a.md was edited' },
      '[memory changed] Memory changed outside this conversation; the assistant was told.: a.md was edited',
    ],
    [
      { kind: 'moved_space', from: { id: 'p', name: 'Personal' }, to: { id: 'w', name: 'Work' } },
      '[moved space] Moved from Personal to Work. From here on the assistant uses the memory of Work.',
    ],
  ])('%j', (fact, line) => {
    expect(cardTerminalLine(item(fact))).toBe(line);
  });

  it('prints a card stored before facts were by its kind and label', () => {
    expect(cardTerminalLine({ event: 'turn_limit', text: 'Stopped.' })).toBe('[turn limit] Stopped.');
  });
});

// The fault suite's checker (test/faults/invariants.ts) fed lines as workers print them: what a restart
// may hold after a kill, and a violation that names what was promised, by which round and operation, and
// what the restart holds instead (a failed run printed only "1 lost acknowledged writes").
import { describe, expect, it } from 'vitest';
import { Expectations } from '../../faults/invariants.js';
import type { ConversationSnapshot, Line, StateLine } from '../../faults/protocol.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const ID = 'c0fc31bd';

function found(
  files: Record<string, string>,
  conversations: Partial<ConversationSnapshot>[] = [],
): StateLine {
  return {
    t: 'state',
    files: Object.entries(files).map(([path, hash]) => ({ path, hash })),
    journalMismatch: [],
    temps: [],
    conversations: conversations.map((c) => ({
      id: ID,
      title: '',
      userTexts: [],
      assistantTexts: [],
      ...c,
    })),
  };
}

const write = (n: number, path: string, state: string | null): Line => ({
  t: 'intent',
  n,
  intent: { kind: 'memory', op: 'panel-write', paths: [{ path, state }] },
});
const rename = (n: number, title: string): Line => ({
  t: 'intent',
  n,
  intent: { kind: 'rename-conversation', conversationId: ID, title },
});
const ack = (n: number, extra: Partial<Extract<Line, { t: 'ack' }>> = {}): Line => ({
  t: 'ack',
  n,
  ...extra,
});

function feed(e: Expectations, round: string, lines: Line[]): void {
  for (const line of lines) e.line(line, round);
}

describe('the fault checker', () => {
  it('names the acknowledged write a restart lost: its round, its operation and what the file holds', () => {
    const e = new Expectations(['/tmp']);
    feed(e, 'round 1', [write(1, '/memories/n0.md', A), ack(1), write(2, '/memories/n0.md', B), ack(2)]);
    e.state(found({ '/memories/n0.md': A }), 'round 2');
    expect(e.violations).toEqual([
      {
        kind: 'lost',
        detail:
          'round 2: /memories/n0.md holds aaaaaaaaaa; it may hold only bbbbbbbbbb (acknowledged: round 1 #2 panel-write)',
      },
    ]);
  });

  it('allows the change in flight at the kill, and names it among what a file may hold', () => {
    const e = new Expectations(['/tmp']);
    feed(e, 'round 1', [write(1, '/memories/n0.md', A), ack(1), write(2, '/memories/n0.md', B)]);
    e.state(found({ '/memories/n0.md': B }), 'round 2');
    expect(e.violations).toEqual([]);
    feed(e, 'round 2', [write(1, '/memories/n0.md', A)]);
    e.state(found({}), 'round 3');
    expect(e.violations.map((v) => v.detail)).toEqual([
      "round 3: /memories/n0.md holds no file; it may hold only bbbbbbbbbb (found by round 2's restart) or aaaaaaaaaa (in flight: round 2 #1 panel-write)",
    ]);
  });

  it('names the acknowledged rename a restart lost, and tells a title found by a restart from one acknowledged', () => {
    const e = new Expectations(['/tmp']);
    e.state(found({}, [{ title: 'first' }]), 'round 1');
    feed(e, 'round 1', [rename(1, 'Old'), ack(1), rename(2, 'New')]);
    e.state(found({}, [{ title: 'first' }]), 'round 2');
    expect(e.violations.map((v) => v.detail)).toEqual([
      `round 2: conversation ${ID} is titled "first"; it may be titled only "Old" (acknowledged: round 1 #1 rename-conversation) or "New" (in flight: round 1 #2 rename-conversation)`,
    ]);
    // What a restart found is held from then on: a later restart that finds the title of a change that
    // was in flight before it (and was not found then) breaks that.
    e.state(found({}, [{ title: 'Old' }]), 'round 3');
    e.state(found({}, [{ title: 'New' }]), 'round 4');
    expect(e.violations.map((v) => v.detail).slice(1)).toEqual([
      `round 3: conversation ${ID} is titled "Old"; it may be titled only "first" (found by round 2's restart)`,
      `round 4: conversation ${ID} is titled "New"; it may be titled only "Old" (found by round 3's restart)`,
    ]);
  });

  it("holds a restart's first list to what was acknowledged, and takes what the check found as the new baseline", () => {
    const e = new Expectations(['/tmp']);
    e.state(found({}, [{ title: 'first' }]), 'round 1');
    feed(e, 'round 1', [rename(1, 'Old'), ack(1), rename(2, 'New')]);
    // The kill came after the rename in flight reached the file, before the summary cache's next save:
    // the first list shows the acknowledged title, the check the one in flight. Both may be.
    e.state({ ...found({}, [{ title: 'New' }]), firstList: [{ id: ID, title: 'Old' }] }, 'round 2');
    expect(e.violations).toEqual([]);
    // Killed again before the cache was saved with what round 2's check found: the first list is behind
    // that check, not behind anything acknowledged.
    e.state({ ...found({}, [{ title: 'New' }]), firstList: [{ id: ID, title: 'Old' }] }, 'round 3');
    expect(e.violations).toEqual([]);
    // A first list that lost an acknowledged rename, though the check finds it.
    feed(e, 'round 3', [rename(1, 'Newer'), ack(1)]);
    e.state({ ...found({}, [{ title: 'Newer' }]), firstList: [{ id: ID, title: 'New' }] }, 'round 4');
    expect(e.violations.map((v) => v.detail)).toEqual([
      `round 4: the first list titles conversation ${ID} "New"; it may be titled only "Newer" (acknowledged: round 3 #1 rename-conversation)`,
    ]);
  });

  it('names the acknowledged message a restart lost, and the round that acknowledged it', () => {
    const e = new Expectations(['/tmp']);
    feed(e, 'round 1', [
      { t: 'intent', n: 1, intent: { kind: 'send', op: 'chat', conversationId: ID, text: 'hello' } },
      ack(1, { conversationId: ID, answer: 'Answer hello.' }),
    ]);
    e.state(found({}, [{ userTexts: [], assistantTexts: ['Answer hello.'] }]), 'round 2');
    e.state(found({}), 'round 3');
    expect(e.violations.map((v) => v.detail)).toEqual([
      `round 2: conversation ${ID} lost the message "hello" (acknowledged: round 1 #1 chat)`,
      `round 3: conversation ${ID} is gone (last found by round 2's restart)`,
    ]);
  });
});

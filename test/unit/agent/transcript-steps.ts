// Generated conversations for the transcript properties: steps that make what moves items across turns
// (tool results and review cards for calls of earlier turns, the retry of an earlier error, repeated tool
// ids, pins, truncations), and the records they become.
import fc from 'fast-check';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';

const at = '2026-01-01T00:00:00.000Z';
const meta: ConversationRecord = { t: 'meta', v: 1, id: 'c1', title: 't', createdAt: at, memory: true };

export type Step =
  | { op: 'user' }
  | { op: 'assistant'; text: boolean; tools: number[] }
  | { op: 'results'; tools: number[]; note: boolean }
  | { op: 'review'; tool: number; review: number }
  | { op: 'reviewed'; review: number }
  | { op: 'card' }
  | { op: 'error' }
  | { op: 'retried'; error: number }
  | { op: 'pin'; message: number }
  | { op: 'truncate'; message: number };

const small = fc.nat({ max: 12 });
export const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ op: 'user' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('assistant' as const),
      text: fc.boolean(),
      tools: fc.array(small, { maxLength: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('results' as const),
      tools: fc.array(small, { maxLength: 3 }),
      note: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('review' as const), tool: small, review: small }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('reviewed' as const), review: small }) },
  { weight: 1, arbitrary: fc.constant({ op: 'card' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'error' as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('retried' as const), error: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('pin' as const), message: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('truncate' as const), message: fc.nat() }) },
);

/**
 * The records the steps make, after `meta` (none with `prefix`: records to append to a conversation
 * already there; the prefix keeps their ids apart from earlier ones).
 */
export function records(steps: Step[], prefix?: string): ConversationRecord[] {
  const out: ConversationRecord[] = prefix === undefined ? [meta] : [];
  const p = prefix ?? '';
  const messages: string[] = [];
  const errors: string[] = [];
  let n = 0;
  const msg = (m: Omit<MessageRecord, 't' | 'id' | 'at'>): void => {
    const id = `${p}m${n++}`;
    messages.push(id);
    out.push({ t: 'msg', id, at, ...m });
  };
  for (const s of steps) {
    switch (s.op) {
      case 'user':
        msg({ kind: 'user', role: 'user', text: `q${n}`, content: [{ type: 'text', text: `q${n}` }] });
        break;
      case 'assistant':
        msg({
          kind: 'assistant',
          role: 'assistant',
          content: [
            ...(s.text ? [{ type: 'text' as const, text: `a${n}` }] : []),
            ...s.tools.map((t) => ({
              type: 'tool_use' as const,
              id: `tu${t}`,
              name: 'memory',
              input: { t },
            })),
          ],
        });
        break;
      case 'results':
        msg({
          kind: 'tool_results',
          role: 'user',
          content: [
            ...s.tools.map((t) => ({
              type: 'tool_result' as const,
              tool_use_id: `tu${t}`,
              content: `r${n}`,
            })),
            ...(s.note ? [{ type: 'text' as const, text: 'memory changed' }] : []),
          ],
          tools: Object.fromEntries(
            s.tools.map((t) => [`tu${t}`, { name: 'memory', durationMs: 3, isError: false }]),
          ),
        });
        break;
      case 'review':
        out.push({
          t: 'event',
          id: `${p}e${n++}`,
          event: 'review',
          at,
          card: {
            kind: 'review',
            reviewId: `r${s.review}`,
            toolUseId: `tu${s.tool}`,
            command: 'create',
            path: '/memories/a.md',
            before: null,
            after: 'x',
          },
        });
        break;
      case 'reviewed':
        out.push({
          t: 'event',
          id: `${p}e${n++}`,
          event: 'reviewed',
          at,
          card: { kind: 'reviewed', reviewId: `r${s.review}`, outcome: 'approved' },
        });
        break;
      case 'card':
        out.push({
          t: 'event',
          id: `${p}e${n++}`,
          event: 'turn_limit',
          at,
          card: { kind: 'turn_limit', turns: 3 },
        });
        break;
      case 'error': {
        const id = `${p}e${n++}`;
        errors.push(id);
        out.push({
          t: 'event',
          id,
          event: 'error',
          at,
          card: { kind: 'error', errorKind: 'server', message: 'Overloaded.', retryable: true },
        });
        break;
      }
      case 'retried':
        if (errors.length)
          out.push({
            t: 'event',
            id: `${p}e${n++}`,
            event: 'retried',
            at,
            card: { kind: 'retried', errorId: errors[s.error % errors.length]! },
          });
        break;
      case 'pin':
        if (messages.length)
          out.push({ t: 'pin', messageId: messages[s.message % messages.length]!, pinned: true, at });
        break;
      case 'truncate':
        if (messages.length) {
          const from = s.message % messages.length;
          out.push({ t: 'truncate', fromMessageId: messages[from]!, at });
          messages.length = from;
        }
        break;
    }
  }
  return out;
}

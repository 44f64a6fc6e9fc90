// The records a user's message adds: the message (after a data note on memory changes, if any) and, for a
// conversation without one yet, a title taken from its first line.
import { randomUUID } from 'node:crypto';
import type { ConversationRecord, MessageRecord } from '../conversations/records.js';
import { now } from './session.js';

/** The user's message (after a data note on memory changes, if any), and a title from it when needed. */
export function userRecords(
  text: string,
  note: string | null,
  titled: boolean,
): [MessageRecord, ...ConversationRecord[]] {
  const record: MessageRecord = {
    t: 'msg',
    id: randomUUID(),
    kind: 'user',
    role: 'user',
    content: [...(note ? [{ type: 'text' as const, text: note }] : []), { type: 'text', text }],
    text,
    at: now(),
  };
  return titled ? [record, { t: 'title', title: titleFrom(text), at: record.at }] : [record];
}

export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.replace(/\s+/g, ' ');
  return line.length <= 60 ? line : `${line.slice(0, 57).trimEnd()}...`;
}

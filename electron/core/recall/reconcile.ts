// How the recall index brings one conversation's documents in line with its state. A conversation being
// answered only grows, so a batch normally takes the messages appended since the last one and nothing
// else: a reply costs its own few documents, not a pass over a 20,000-message history. Any other change
// (a cut for edit-and-resend or retry, a file rewritten or reloaded, a forget's redaction in place) makes
// it diff every message against the text hashes it has, in slices, so neither path holds the event loop.
import type MiniSearch from 'minisearch';
import type { MessageRecord } from '../conversations/records.js';
import type { ConversationState } from '../conversations/state.js';
import { textHash } from './persist.js';
import { searchable } from './search.js';
import type { Slicer } from './slices.js';
import { messageText } from './text.js';

export interface Doc {
  id: string;
  text: string;
  /** Conversation id, the message's time, and t(itle) / u(ser) / a(ssistant). */
  c: string;
  at: string;
  k: 't' | 'u' | 'a';
}

export const titleDoc = (c: string): string => `${c}#t`;
export const messageDoc = (c: string, m: string): string => `${c}/${m}`;

/**
 * What the index last took of a live state: how many messages, the last one (the record itself), and the
 * store's redaction mark then. Messages are only appended unless the last one seen is no longer at its
 * place (a cut, then perhaps appends; a rewritten or reloaded file, whose records are all new objects),
 * or the mark moved (a forget changed records in place, which nothing else shows).
 */
export interface Seen {
  length: number;
  last: MessageRecord | undefined;
  redactions: number;
}

export interface Indexed {
  /** The cheap key it was indexed at (recall-index.ts's conversationKey). */
  key: string;
  /** Each document's id and the hash of its text. */
  hashes: Map<string, string>;
  /** Only for a state indexed live in this process (not one loaded from the index's files). */
  seen?: Seen;
}

export interface Outcome {
  hashes: Map<string, string>;
  seen?: Seen;
  /** Documents taken out (a deletion is saved at once). */
  removed: boolean;
  /** Documents added or replaced. */
  added: boolean;
  /** A document's text changed under the same id (a redaction, a rename). */
  inPlace: boolean;
}

/** The messages appended since `seen`, or null when anything else may have changed. */
function appended(
  messages: readonly MessageRecord[],
  seen: Seen | undefined,
  redactions: number | undefined,
): readonly MessageRecord[] | null {
  if (!seen || redactions === undefined || seen.redactions !== redactions) return null;
  if (seen.length > 0 && messages[seen.length - 1] !== seen.last) return null;
  return messages.slice(seen.length);
}

/**
 * Brings the documents of conversation `id` in `mini` in line with `state` (null: gone or unreadable).
 * `redactions` is the store's mark for it, read before the state (undefined: a source without marks,
 * then every batch diffs it whole). The state may change while this pauses: what was taken is what
 * `seen` says, and the change marks the conversation for the next batch.
 */
export async function reconcile(
  mini: MiniSearch<Doc>,
  id: string,
  state: ConversationState | null,
  known: Indexed | undefined,
  redactions: number | undefined,
  slicer: Slicer,
): Promise<Outcome> {
  const live = state !== null && searchable(state);
  // Taken now: the rest may run across pauses.
  const title = live ? state.title : '';
  const seen: Seen | undefined = live
    ? { length: state.messages.length, last: state.messages.at(-1), redactions: redactions ?? 0 }
    : undefined;
  const fresh = live && known ? appended(state.messages, known.seen, redactions) : null;
  const messages = live && !fresh ? state.messages.slice() : [];
  const hashes = fresh ? known!.hashes : new Map<string, string>();
  const out: Outcome = { hashes, removed: false, added: false, inPlace: false };
  if (redactions !== undefined && seen) out.seen = seen;
  const wanted = new Map<string, { doc: Doc; hash: string }>();
  const want = (doc: Doc): void => void wanted.set(doc.id, { doc, hash: textHash(doc.text) });
  if (title) want({ id: titleDoc(id), c: id, text: title, at: state!.meta.createdAt, k: 't' });
  for (const m of fresh ?? messages) {
    const text = messageText(m);
    if (text) want({ id: messageDoc(id, m.id), c: id, text, at: m.at, k: m.kind === 'user' ? 'u' : 'a' });
    if (slicer.due()) await slicer.pause();
  }
  const take = (docId: string): void => {
    if (mini.has(docId)) mini.discard(docId);
    out.removed = true;
  };
  if (fresh) {
    // Appends only: the title is the one document that may have gone.
    if (!title && hashes.delete(titleDoc(id))) take(titleDoc(id));
  } else {
    for (const [docId, hash] of known?.hashes ?? []) {
      const next = wanted.get(docId);
      if (next?.hash === hash) {
        hashes.set(docId, hash);
        wanted.delete(docId);
      } else {
        if (next) out.inPlace = true;
        take(docId);
      }
      if (slicer.due()) await slicer.pause();
    }
  }
  for (const [docId, { doc, hash }] of wanted) {
    const before = fresh ? hashes.get(docId) : undefined;
    if (before === hash) continue;
    if (before !== undefined) {
      out.inPlace = true;
      take(docId);
    } else if (mini.has(docId)) mini.discard(docId);
    mini.add(doc);
    hashes.set(docId, hash);
    out.added = true;
    if (slicer.due()) await slicer.pause();
  }
  return out;
}

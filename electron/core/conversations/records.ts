// The lines of a conversation's JSONL file. The file is append-only: every change (a message, a rename, a
// pin, a truncation for regenerate/edit, a clearing or compaction decision) is one more line, so a crash can
// only ever lose or tear the last line. Replaying the lines in order rebuilds the state (state.ts).
import type { BetaContentBlockParam } from '@anthropic-ai/sdk/resources/beta/messages/messages.js';
import type { CardFact } from '../../../shared/projection/cards.js';

export type Block = BetaContentBlockParam;

/**
 * What a message is for:
 * - user: the person's turn (content may start with data blocks the app added, e.g. memory changes);
 * - assistant: a model reply as the API returned it (compaction blocks included, round-tripped unchanged);
 * - tool_results: the user-role message answering the previous assistant's tool_use blocks;
 * - backfill: the memory the app gave before the first turn, as an already executed `view`
 *   (an assistant tool_use + a user tool_result, stored as one record and expanded when sending).
 */
export type MessageKind = 'user' | 'assistant' | 'tool_results' | 'backfill';

export interface ToolMeta {
  name: string;
  durationMs: number;
  isError: boolean;
  /** A memory write: the journal entry it made (the card's diff and Undo). */
  journalId?: string;
}

export interface MetaRecord {
  t: 'meta';
  v: 1;
  id: string;
  title: string;
  createdAt: string;
  memory: boolean;
  /**
   * Set anew by every rewrite of the whole file (store.rewrite): another process that finds a different
   * rev in the first line reloads the file, even when the new file has the old one's inode number and size.
   */
  rev?: string;
  /** The user asked that recall never search this conversation (set by a rewrite of this line). */
  noSearch?: boolean;
}

export interface MessageRecord {
  t: 'msg';
  id: string;
  kind: MessageKind;
  role: 'user' | 'assistant';
  content: Block[];
  at: string;
  /** The person's own words (user messages), without the data blocks the app added in front. */
  text?: string;
  /** The answer was cut off (abort, lost connection, stall); its content is kept as far as it got. */
  interrupted?: boolean;
  /** tool_results: name, duration and error flag per tool_use_id, for the transcript. */
  tools?: Record<string, ToolMeta>;
  /** assistant: what the API reported for the request that produced it. */
  usage?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** backfill: the files given and their estimated tokens. */
  backfill?: { files: { path: string; tokens: number }[]; totalFiles: number; tokens: number };
}

export interface TitleRecord {
  t: 'title';
  title: string;
  at: string;
}

export interface PinRecord {
  t: 'pin';
  messageId: string;
  pinned: boolean;
  at: string;
}

/** Drops this message and everything after it (regenerate, edit and resend). */
export interface TruncateRecord {
  t: 'truncate';
  fromMessageId: string;
  at: string;
}

/**
 * A card of the transcript: its structured fact (shared/projection/cards.ts), from which every face derives
 * its label. `event` names the card's kind. Records written before facts existed carry `text` (the label
 * as it was then), `detail`, and for clearing and compaction `strategy` and the token counts, instead.
 */
export interface EventRecord {
  t: 'event';
  id: string;
  event: string;
  card?: CardFact;
  text?: string;
  detail?: string;
  strategy?: 'native' | 'local';
  tokensBefore?: number;
  tokensAfter?: number;
  at: string;
}

/** Local strategy: these tool results are sent as a placeholder from now on. */
export interface ClearedRecord {
  t: 'cleared';
  toolUseIds: string[];
  tokens: number;
  at: string;
}

/**
 * Messages up to and including `lastMessageId` are replaced by a summary. local: our own summary text,
 * sent as data; native: the signed compaction block from the on-demand request, sent first as the API
 * requires. `memory` is the memory text given again right after the summary.
 */
export interface CompactedRecord {
  t: 'compacted';
  strategy: 'local' | 'native';
  lastMessageId: string;
  summary: string;
  block?: Block;
  /** The memory given again after the summary, as an already executed view (absent with memory off). */
  memory?: {
    toolUseId: string;
    text: string;
    files: { path: string; tokens: number }[];
    totalFiles: number;
    tokens: number;
  };
  /** Pinned messages, quoted as data; never summarized. */
  pinned?: string;
  /**
   * The message being answered, as the user wrote it, when a local compaction cut inside its turn (it is
   * summarized, and given again after the summary and the memory).
   */
  request?: string;
  tokensBefore: number;
  tokensAfter: number;
  messagesCompacted: number;
  at: string;
}

export type ConversationRecord =
  | MetaRecord
  | MessageRecord
  | TitleRecord
  | PinRecord
  | TruncateRecord
  | EventRecord
  | ClearedRecord
  | CompactedRecord;

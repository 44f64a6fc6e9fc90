// What the fault worker tells the parent, one JSON object per stdout line after PREFIX. stdout is a pipe,
// and writes to a pipe are synchronous on Linux, so a line written before a SIGKILL always arrives.
//
// Order within one child: ready → state (what the restart found) → check lines (every conversation
// continued once) → checked → go → intent/ack/fail/mark lines of the workload, until it is killed.

export const PREFIX = '@@ ';

/** The state a path may hold: a content hash, or null for "no file". */
export type FileState = string | null;

export interface ConversationSnapshot {
  id: string;
  title: string;
  /** Texts of the visible transcript's user and assistant items, in order. */
  userTexts: string[];
  assistantTexts: string[];
}

export interface StateLine {
  t: 'state';
  files: { path: string; hash: string }[];
  /** Files whose newest journal entry does not name the content they hold. */
  journalMismatch: { path: string; detail: string }[];
  /** Names starting with '.' left in the memory folder (temp files of interrupted writes). */
  temps: string[];
  /** Every conversation once the start has checked the summary cache against the files. */
  conversations: ConversationSnapshot[];
  /**
   * The restart's first list, as a window first shows it: the summary cache's, before that check. It must
   * hold what was acknowledged, and may lag behind the change in flight at the kill (the check then
   * announces the difference), so it is compared, never taken as what the restart holds.
   */
  firstList?: { id: string; title: string }[];
  /** Conversations whose pages, walked from the end, are not exactly their full transcript. */
  pagedMismatch?: { id: string; detail: string }[];
}

export type Intent =
  /** A memory change: each affected path and the state it has once the change is applied. */
  | { kind: 'memory'; op: string; paths: { path: string; state: FileState }[] }
  | { kind: 'send'; op: string; conversationId: string | null; text: string }
  | { kind: 'rename-conversation'; conversationId: string; title: string }
  | { kind: 'delete-conversation'; conversationId: string }
  | { kind: 'compact'; conversationId: string };

export type Line =
  /** ms: createCore and the conversation list; sinceStart: from the process's start (imports included). */
  | { t: 'ready'; ms: number; sinceStart: number }
  | StateLine
  /** The check's continuation of one conversation: did the API accept its request? */
  | { t: 'check'; conversationId: string; ok: boolean; busyMs: number; detail?: string }
  | { t: 'checked'; requests: number; rejected: string[] }
  | { t: 'go'; full: boolean }
  | { t: 'intent'; n: number; intent: Intent }
  /** Acknowledged to the user: the change is saved. A send's ack carries its conversation and answer. */
  | { t: 'ack'; n: number; conversationId?: string; answer?: string; applied?: boolean }
  /** Refused or failed, with the message the user would see. */
  | { t: 'fail'; n: number; message: string; full: boolean }
  /** A moment worth killing at (a tool call, a review waiting). */
  | { t: 'mark'; what: string }
  | { t: 'disk'; full: boolean };

export function emit(line: Line): void {
  process.stdout.write(`${PREFIX}${JSON.stringify(line)}\n`);
}

export function parseLine(text: string): Line | undefined {
  if (!text.startsWith(PREFIX)) return undefined;
  return JSON.parse(text.slice(PREFIX.length)) as Line;
}

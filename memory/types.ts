// The memory layer's public API. Other parts of Mnemo (the agent loop, the contract's memory.* handlers,
// search and export/import) code against these types only; keep names stable.
//
// Paths are always the model's view: `/memories` or `/memories/<segment>/...` (canonical, see paths.ts).
// Host paths never leave this folder except `Memory.root`/`Memory.journalDir`, which are for same-process
// code (search indexing, export) and must never be shown to the model or the user.
//
// The memory layer owns these types; the contract (shared/channels) maps them to its wire schemas, so the
// storage layer never depends on the wire format.

/** One file or folder of list(). Times are ISO 8601. */
export interface MemoryEntry {
  path: string;
  kind: 'file' | 'dir';
  size: number;
  modifiedAt: string;
  lastReadAt: string | null;
  stale: boolean;
}

/** One change in the journal, as the panel and export see it. Hashes are sha256 hex (null: no file). */
export interface JournalEntry {
  id: string;
  at: string;
  actor: ActorKind;
  command: string;
  path: string;
  newPath?: string;
  beforeHash: string | null;
  afterHash: string | null;
  conversationId?: string;
  conversationTitle?: string;
  toolUseId?: string;
  messageId?: string;
  /** A change that arrived by sync: the device it came from, and who made it there. */
  device?: string;
  origin?: 'agent' | 'user' | 'external' | 'import' | 'system';
  revertible: boolean;
  /** A copy or move between spaces (issue 15): the other space, as it was named then. */
  fromSpace?: SpaceRef;
  toSpace?: SpaceRef;
}

/** Another space, as a journal entry names it. */
export interface SpaceRef {
  id: string;
  name: string;
}

/** Who made a change. The agent's changes carry the ids needed to show provenance in the panel. */
export type Actor =
  | {
      kind: 'agent';
      conversationId: string;
      toolUseId: string;
      messageId?: string;
      conversationTitle?: string;
    }
  | {
      kind: 'user';
      /** Set by "Copy/Move to space…": the file came from that space (its create here). */
      fromSpace?: SpaceRef;
      /** Set by "Move to space…": the file went to that space (its delete here). */
      toSpace?: SpaceRef;
    }
  | { kind: 'external' }
  | { kind: 'import' }
  | { kind: 'system' }
  | SyncActor;

/**
 * A change that arrived from another device by sync (electron/core/sync): journaled here as coming from
 * that device, with the provenance its commit carried (who made it there, in which conversation and tool
 * call), so History, Revert and "written in …" work on this device too.
 */
export interface SyncActor {
  kind: 'sync';
  device: string;
  /** Who made the change on that device. */
  origin?: 'agent' | 'user' | 'external' | 'import' | 'system';
  conversationId?: string;
  conversationTitle?: string;
  toolUseId?: string;
}

export type ActorKind = Actor['kind'];

export interface MemoryLimits {
  /** A file above this many UTF-8 bytes is refused (never truncated). Default 100 KiB. */
  fileCapBytes: number;
  /** All files together; a write that would exceed it is refused. Default 10 MiB. */
  quotaBytes: number;
  /** `view` output is cut at this many characters, with a note on paging with view_range. Default 16,000. */
  viewCapChars: number;
  /** Past this size the journal drops its oldest history. Default 50 MiB. */
  journalCapBytes: number;
  /** Files unread for longer than this are listed by stale(). Default 90. Nothing is deleted automatically. */
  staleAfterDays: number;
}

export const defaultLimits: MemoryLimits = {
  fileCapBytes: 100 * 1024,
  quotaBytes: 10 * 1024 * 1024,
  viewCapChars: 16_000,
  journalCapBytes: 50 * 1024 * 1024,
  staleAfterDays: 90,
};

export interface MemoryOptions {
  /** The app's data folder. Memory lives in `<dataDir>/memories`, the journal in `<dataDir>/memory-journal`. */
  dataDir: string;
  limits?: Partial<MemoryLimits>;
  /** Injected time source (tests). Defaults to Date.now. */
  clock?: () => number;
  /** Watch the folder for edits made outside the app. Default true. */
  watch?: boolean;
  /** Debounce for watcher events, ms. Default 150. */
  watchDebounceMs?: number;
  /**
   * Where the first open of a folder never opened before (no saved state, an empty journal) puts the
   * hashing of its files: a queue that runs it when the app is idle (the spaces' IdleWarmer). Nothing
   * needs the hashes before a change, which computes them first if the queue has not run yet. Without
   * it, the open hashes every file itself.
   */
  idle?: (job: () => Promise<unknown>) => void;
}

/** A tool result ready for `{type:'tool_result', content, is_error}`. Never contains a host path. */
export interface ToolResult {
  content: string;
  isError: boolean;
}

/** The `memory_20250818` tool as the agent uses it. */
export interface MemoryTool {
  /** What goes into the request's `tools` array. */
  readonly definition: { type: 'memory_20250818'; name: 'memory' };
  /**
   * Run one tool call. `input` is the raw `tool_use.input` (parsed here by a zod schema); any refusal comes
   * back as `isError: true` with a clear message, never as a thrown error.
   */
  execute(input: unknown, actor: Actor): Promise<ToolResult>;
}

export interface FileContent {
  path: string;
  content: string;
  /** sha256 hex of the UTF-8 content; pass it back as `baseVersion` when saving. */
  version: string;
}

export interface ChangeResult {
  /** sha256 hex of the new content. */
  version: string;
  journalId: string;
}

/** Emitted after every change, by any actor (external edits are noticed by a watcher). */
export interface ChangeEvent {
  actor: ActorKind;
  /** create | write | str_replace | insert | delete | rename | revert | restore | forget | external | import */
  command: string;
  path: string;
  newPath?: string;
  journalId?: string;
  conversationId?: string;
  /** The agent's change: the tool call that made it (its tool item carries the journal entry). */
  toolUseId?: string;
}

export interface UnreachableEntry {
  /** A display path: the name as far as it can be shown (bytes that are not UTF-8 show as U+FFFD). */
  path: string;
  kind: 'file' | 'dir';
  reason: string;
}

export interface DiffResult {
  path: string;
  before: string | null;
  after: string | null;
  /** Unified diff (the `diff` package's createTwoFilesPatch). */
  patch: string;
}

/**
 * `baseVersion` for write(): a version string = the file must still have that content (else a `conflict`
 * MemoryError whose `details` holds both contents); `null` = the file must not exist yet; `'any'` =
 * unconditional (import after its own preview, system tasks).
 */
export type BaseVersion = string | null | 'any';

export interface Memory {
  /** Host path of the memory root. Same-process use only (search index, export); never show it. */
  readonly root: string;
  /** Host path of the journal folder (export "with journal"). Never show it. */
  readonly journalDir: string;
  /** The limits in force; change them with setLimits. */
  readonly limits: Readonly<MemoryLimits>;
  /** Change limits while running (settings); they apply from the next change on. */
  setLimits(limits: Partial<MemoryLimits>): void;
  readonly tool: MemoryTool;

  /** Every file and folder (not the root), sorted by path; links are left out. */
  list(): Promise<MemoryEntry[]>;
  /**
   * What is in the memory folder on disk but cannot be used as memory (links, hard-linked files, names
   * that are not UTF-8, two names equal in NFC), with the reason: what list() leaves out, so an export
   * can say what it did not include.
   */
  unreachable(): Promise<UnreachableEntry[]>;
  /** Bytes used by all files, and the quota. */
  usage(): Promise<{ totalBytes: number; quotaBytes: number }>;
  read(path: string): Promise<FileContent>;
  /** Save a whole file (the panel's editor, import). Creates missing parent folders. */
  write(path: string, content: string, baseVersion: BaseVersion, actor?: Actor): Promise<ChangeResult>;
  /**
   * Many whole-file saves as one change (one journal append, one disk sync): each file checked as by
   * write() and refused alone (its outcome holds the MemoryError); the quota is checked for the whole set
   * (then the call throws `quota` and writes nothing). Sync's pull uses it.
   */
  writeMany(
    items: readonly { path: string; content: string; baseVersion: BaseVersion }[],
    actor?: Actor,
  ): Promise<
    ({ ok: true; result: ChangeResult } | { ok: false; error: Error & { code: MemoryErrorCode } })[]
  >;
  /** Create a new file; refuses (`exists`) if anything is already at that path. */
  create(path: string, content: string, actor?: Actor): Promise<ChangeResult>;
  /** Move a file or folder; never overwrites, never moves a folder into itself, never the root. */
  rename(path: string, newPath: string, actor?: Actor): Promise<{ journalId: string }>;
  /** Delete a file or a folder (recursive); never the root. A planted link is removed itself. */
  delete(path: string, actor?: Actor): Promise<{ journalId: string }>;

  /** Journal entries touching this path (as path or newPath), newest first. */
  history(path: string): Promise<JournalEntry[]>;
  /** All journal entries, newest first (export with journal, the panel's activity view). */
  journal(): Promise<JournalEntry[]>;
  /**
   * The changes one tool call made (the agent's `Actor.toolUseId`), oldest first; empty when it changed
   * nothing. The agent asks after a crash whether a memory write whose result it never recorded was applied.
   */
  changesBy(toolUseId: string): Promise<JournalEntry[]>;
  diff(journalId: string): Promise<DiffResult>;
  /** Undo one change (itself journaled). `conflict` if the file moved on and the change cannot be undone cleanly. */
  revert(journalId: string, actor?: Actor): Promise<{ journalId: string }>;
  /** Delete entries of files that do not exist now, newest first. */
  deleted(): Promise<JournalEntry[]>;
  /** Bring back the file a delete entry removed (`exists` if the path is taken). */
  restore(journalId: string, actor?: Actor): Promise<{ journalId: string }>;
  /**
   * Remove a file or folder and every trace of it (including its renames) from the journal. Returns what
   * was erased; the forget stays pending (see pendingForgets) until settleForget says the app erased its
   * own copies too.
   */
  forget(path: string): Promise<ForgetTrace>;
  /**
   * Forgets not settled yet (cut short by a crash, or under way in another process): finish each with
   * resumeForget, then settleForget. `tidy: false` leaves temp files alone (another process may be writing
   * one: a read while forgets are under way elsewhere).
   */
  pendingForgets(options?: { tidy?: boolean }): Promise<ForgetTrace[]>;
  /**
   * Calls `onChange` (debounced) when a forget's intent record is written, updated or removed, by any
   * process on this folder: a process holding a conversation can erase its copies while it holds it.
   * Returns the stop.
   */
  watchForgets(onChange: () => void): () => void;
  /** Redo the memory part of a pending forget (idempotent). */
  resumeForget(trace: ForgetTrace): Promise<void>;
  /** The forget is complete everywhere: drop its intent record (the last copy of the content). */
  settleForget(id: string): Promise<void>;

  /** Files not read (view, or touchRead) for longer than limits.staleAfterDays. */
  stale(): Promise<MemoryEntry[]>;
  /** Record that these files were read (the agent's backfill). Persisted lazily. */
  touchRead(paths: readonly string[]): void;

  /** Subscribe to changes; returns the unsubscribe function. */
  onChange(listener: (event: ChangeEvent) => void): () => void;
  /** Persist lazy state (last-read times), make pending renames durable and checkpoint the journal. */
  flush(): Promise<void>;
  /** flush(), stop the watcher, release everything. */
  close(): Promise<void>;
}

export const memoryErrorCodes = [
  'invalid_path', // not a canonical /memories path, or a name that aliases on some OS
  'not_found',
  'exists',
  'conflict', // the file changed since baseVersion / revert cannot apply; details: { path, current, mine }
  'too_large', // above limits.fileCapBytes
  'quota', // above limits.quotaBytes
  'secret', // the content looks like a credential; the message names the detector, never the value
  'encoding', // not valid UTF-8 text
  'link', // a symbolic or hard link is in the way
  'invalid_input', // a malformed tool command or argument
  'not_a_file',
  'not_a_folder',
  'root', // the root cannot be deleted or renamed
  'io', // an unexpected file-system error (message has no host path)
  'closed',
] as const;
export type MemoryErrorCode = (typeof memoryErrorCodes)[number];

/** What a forget erases: every name the file had and every version of its content (see forget-intent.ts). */
export interface ForgetTrace {
  id: string;
  /** The path the user forgot. */
  path: string;
  /** It and every name it had before a rename. */
  paths: string[];
  /** Every content the journal held for those names, and what was on disk. */
  versions: string[];
  /** The memory part is complete and durable (resumeForget then leaves the memory alone). */
  memoryDone?: boolean;
}

// What the parent knows a data folder may hold, from the worker's intents and acks, and the check of what
// a restart found against it. Acknowledged = the user was told it is saved (a handler resolved, a tool
// result said so, a run finished). After a kill, a path may hold its last acknowledged state or the state
// of the change that was in flight; a failed change must leave it as it was. Every state a path or a
// conversation may hold is kept with where it came from (the round and the operation that acknowledged
// it, the change in flight, or the restart that found it), so a violation names the promise it broke.
import type { ConversationSnapshot, FileState, Intent, Line, StateLine } from './protocol.js';

export interface Violation {
  kind: 'bricked' | 'torn' | 'lost' | 'unclear' | 'crash' | 'hang';
  detail: string;
}

/** Where a state came from, as a violation names it. */
type Source = string;

interface FileExpect {
  /** Each state the path may hold, with where it came from. */
  allowed: Map<FileState, Source>;
  acked: FileState;
  ackedBy: Source;
  /** Every state it was ever acknowledged to hold (to tell a lost write from a torn file). */
  past: Set<FileState>;
}

interface ConversationExpect {
  deleted: boolean;
  maybeDeleted: boolean;
  /**
   * Titles it may have, with where each came from (null: any; the app titles a conversation from its
   * first message).
   */
  titles: Map<string, Source> | null;
  /**
   * Titles a restart's first list may show (null: any): the last acknowledged rename's, and every title
   * since (in flight, or found by a restart's check). The first list is the summary cache's, saved before
   * a rename is acknowledged but after a restart's check only a moment later, so it may show any title the
   * check found since, but never one from before an acknowledged rename.
   */
  firstTitles: Map<string, Source> | null;
  ackedTitle: string | null;
  titledBy: Source;
  /** The title was set by an acknowledged rename: from then on it is held to it. */
  renamed: boolean;
  userTexts: Acked[];
  answers: Acked[];
  /** The last time it was known to exist: an acknowledgement or a restart that found it. */
  seen: Source;
}

interface Acked {
  text: string;
  source: Source;
}

/** The words a full disk's message must use, so a person knows what to do. */
const DISK_WORDS = /disk|space|storage|full/i;

export class Expectations {
  private readonly files = new Map<string, FileExpect>();
  private readonly conversations = new Map<string, ConversationExpect>();
  private readonly pending = new Map<number, { intent: Intent; round: string }>();
  readonly violations: Violation[] = [];

  constructor(private readonly hostPaths: string[]) {}

  private file(path: string): FileExpect {
    let f = this.files.get(path);
    if (!f) {
      f = {
        allowed: new Map([[null, 'never written']]),
        acked: null,
        ackedBy: 'never written',
        past: new Set(),
      };
      this.files.set(path, f);
    }
    return f;
  }

  private conversation(id: string): ConversationExpect {
    let c = this.conversations.get(id);
    if (!c) {
      c = {
        deleted: false,
        maybeDeleted: false,
        titles: null,
        firstTitles: null,
        ackedTitle: null,
        titledBy: 'never renamed',
        renamed: false,
        userTexts: [],
        answers: [],
        seen: 'never acknowledged',
      };
      this.conversations.set(id, c);
    }
    return c;
  }

  private violate(kind: Violation['kind'], detail: string): void {
    this.violations.push({ kind, detail });
  }

  /** Feeds one line of the workload (intent, ack, fail) that `round` printed. */
  line(line: Line, round: string): void {
    if (line.t === 'intent') {
      this.pending.set(line.n, { intent: line.intent, round });
      const i = line.intent;
      const inFlight = `in flight: ${round} #${line.n} ${describe(i)}`;
      // A state already allowed keeps its source (a write of the content a path already holds).
      if (i.kind === 'memory')
        for (const p of i.paths) {
          const allowed = this.file(p.path).allowed;
          if (!allowed.has(p.state)) allowed.set(p.state, inFlight);
        }
      else if (i.kind === 'rename-conversation') {
        const c = this.conversation(i.conversationId);
        for (const titles of [c.titles, c.firstTitles])
          if (titles && !titles.has(i.title)) titles.set(i.title, inFlight);
      } else if (i.kind === 'delete-conversation') this.conversation(i.conversationId).maybeDeleted = true;
    } else if (line.t === 'ack') this.ack(line);
    else if (line.t === 'fail') this.fail(line);
  }

  private ack(line: Extract<Line, { t: 'ack' }>): void {
    const pending = this.pending.get(line.n);
    this.pending.delete(line.n);
    if (!pending) return;
    const { intent: i, round } = pending;
    const source = `acknowledged: ${round} #${line.n} ${describe(i)}`;
    if (i.kind === 'memory') {
      for (const p of i.paths) {
        const f = this.file(p.path);
        f.acked = p.state;
        f.ackedBy = source;
        f.allowed = new Map([[p.state, source]]);
        f.past.add(p.state);
      }
    } else if (i.kind === 'send' && line.conversationId) {
      const c = this.conversation(line.conversationId);
      c.userTexts.push({ text: i.text, source });
      if (line.answer) c.answers.push({ text: line.answer, source });
      c.seen = source;
    } else if (i.kind === 'rename-conversation') {
      const c = this.conversation(i.conversationId);
      c.ackedTitle = i.title;
      c.titledBy = source;
      c.titles = new Map([[i.title, source]]);
      c.firstTitles = new Map([[i.title, source]]);
      c.renamed = true;
      c.seen = source;
    } else if (i.kind === 'delete-conversation') this.conversation(i.conversationId).deleted = true;
  }

  private fail(line: Extract<Line, { t: 'fail' }>): void {
    const i = this.pending.get(line.n)?.intent;
    this.pending.delete(line.n);
    if (line.message.startsWith('HANG:')) this.violate('hang', line.message);
    if (
      /\n\s+at |\.[cm]?[jt]s:\d+/.test(line.message) ||
      this.hostPaths.some((p) => line.message.includes(p))
    )
      this.violate('unclear', `a stack or a host path reached the user: ${line.message.slice(0, 300)}`);
    else if (line.full && !DISK_WORDS.test(line.message))
      this.violate('unclear', `a full disk failed ${describe(i)} with "${line.message.slice(0, 200)}"`);
    if (!i) return;
    if (i.kind === 'memory')
      for (const p of i.paths) {
        const f = this.file(p.path);
        f.allowed = new Map([[f.acked, f.ackedBy]]);
      }
    else if (i.kind === 'rename-conversation') {
      const c = this.conversation(i.conversationId);
      c.titles = c.renamed && c.ackedTitle !== null ? new Map([[c.ackedTitle, c.titledBy]]) : null;
      if (c.firstTitles?.get(i.title)?.startsWith('in flight:')) c.firstTitles.delete(i.title);
    } else if (i.kind === 'delete-conversation') this.conversation(i.conversationId).maybeDeleted = false;
  }

  /** Compares what a restart found; afterwards, what it found is the new baseline. */
  state(found: StateLine, round: string): void {
    const foundBy = `found by ${round}'s restart`;
    const onDisk = new Map(found.files.map((f) => [f.path, f.hash]));
    for (const path of new Set([...this.files.keys(), ...onDisk.keys()])) {
      const f = this.file(path);
      const state = onDisk.get(path) ?? null;
      if (!f.allowed.has(state)) {
        const was = [...f.allowed].map(([s, source]) => `${short(s)} (${source})`).join(' or ');
        if (state === null || f.past.has(state))
          this.violate('lost', `${round}: ${path} holds ${short(state)}; it may hold only ${was}`);
        else
          this.violate(
            'torn',
            `${round}: ${path} holds ${short(state)}, a version nobody wrote; it may hold only ${was}`,
          );
      }
      f.acked = state;
      f.ackedBy = foundBy;
      f.allowed = new Map([[state, foundBy]]);
      f.past.add(state);
    }
    for (const m of found.journalMismatch) this.violate('torn', `${round}: ${m.path}: ${m.detail}`);
    for (const m of found.pagedMismatch ?? [])
      this.violate('torn', `${round}: conversation ${m.id} pages differ from its transcript: ${m.detail}`);
    for (const t of found.temps)
      this.violate('torn', `${round}: a temp file is left in the memory folder: ${t}`);

    for (const c of found.firstList ?? []) this.firstListed(c, round);
    const seen = new Map(found.conversations.map((c) => [c.id, c]));
    for (const id of seen.keys()) this.conversation(id);
    for (const [id, c] of this.conversations) this.conversationFound(id, c, seen.get(id), round, foundBy);
    this.pending.clear();
  }

  /** A conversation of the restart's first list: no title from before an acknowledged rename, nor a deleted one. */
  private firstListed(listed: { id: string; title: string }, round: string): void {
    const c = this.conversations.get(listed.id);
    if (!c) return; // created by a send in flight at the kill
    if (c.deleted)
      this.violate('lost', `${round}: deleted conversation ${listed.id} is back in the first list`);
    else if (c.firstTitles && !c.firstTitles.has(listed.title)) {
      const was = [...c.firstTitles].map(([t, source]) => `"${t}" (${source})`).join(' or ');
      this.violate(
        'lost',
        `${round}: the first list titles conversation ${listed.id} "${listed.title}"; it may be titled only ${was}`,
      );
    }
  }

  private conversationFound(
    id: string,
    c: ConversationExpect,
    found: ConversationSnapshot | undefined,
    round: string,
    foundBy: Source,
  ): void {
    if (!found) {
      if (!c.deleted && !c.maybeDeleted)
        this.violate('lost', `${round}: conversation ${id} is gone (last ${c.seen})`);
      c.deleted = true;
      return;
    }
    if (c.deleted) this.violate('lost', `${round}: deleted conversation ${id} is back`);
    if (c.titles && !c.titles.has(found.title)) {
      const was = [...c.titles].map(([t, source]) => `"${t}" (${source})`).join(' or ');
      this.violate(
        'lost',
        `${round}: conversation ${id} is titled "${found.title}"; it may be titled only ${was}`,
      );
    }
    for (const t of c.userTexts)
      if (!found.userTexts.includes(t.text))
        this.violate('lost', `${round}: conversation ${id} lost the message "${t.text}" (${t.source})`);
    for (const a of c.answers)
      if (!found.assistantTexts.includes(a.text))
        this.violate('lost', `${round}: conversation ${id} lost the answer "${a.text}" (${a.source})`);
    c.deleted = false;
    c.maybeDeleted = false;
    c.titles = c.renamed ? new Map([[found.title, foundBy]]) : null;
    if (c.firstTitles && !c.firstTitles.has(found.title)) c.firstTitles.set(found.title, foundBy);
    c.ackedTitle = found.title;
    c.titledBy = foundBy;
    c.seen = foundBy;
  }

  /** A conversation the restart could not continue: its request was rejected, or the run failed. */
  bricked(conversationId: string, detail: string, round: string): void {
    this.violate('bricked', `${round}: conversation ${conversationId}: ${detail}`);
  }

  record(kind: Violation['kind'], detail: string): void {
    this.violate(kind, detail);
  }

  count(kind: Violation['kind']): number {
    return this.violations.filter((v) => v.kind === kind).length;
  }
}

const short = (s: FileState): string => (s === null ? 'no file' : s.slice(0, 10));

function describe(i: Intent | undefined): string {
  if (!i) return 'a change';
  return i.kind === 'memory' || i.kind === 'send' ? i.op : i.kind;
}

// What the parent knows a data folder may hold, from the worker's intents and acks, and the check of what
// a restart found against it. Acknowledged = the user was told it is saved (a handler resolved, a tool
// result said so, a run finished). After a kill, a path may hold its last acknowledged state or the state
// of the change that was in flight; a failed change must leave it as it was.
import type { ConversationSnapshot, FileState, Intent, Line, StateLine } from './protocol.js';

export interface Violation {
  kind: 'bricked' | 'torn' | 'lost' | 'unclear' | 'crash' | 'hang';
  detail: string;
}

interface FileExpect {
  allowed: Set<FileState>;
  acked: FileState;
  /** Every state it was ever acknowledged to hold (to tell a lost write from a torn file). */
  past: Set<FileState>;
}

interface ConversationExpect {
  deleted: boolean;
  maybeDeleted: boolean;
  /** Titles it may have (null: any; the app titles a conversation from its first message). */
  titles: Set<string> | null;
  ackedTitle: string | null;
  /** The title was set by an acknowledged rename: from then on it is held to it. */
  renamed: boolean;
  userTexts: string[];
  answers: string[];
}

/** The words a full disk's message must use, so a person knows what to do. */
const DISK_WORDS = /disk|space|storage|full/i;

export class Expectations {
  private readonly files = new Map<string, FileExpect>();
  private readonly conversations = new Map<string, ConversationExpect>();
  private readonly pending = new Map<number, Intent>();
  readonly violations: Violation[] = [];

  constructor(private readonly hostPaths: string[]) {}

  private file(path: string): FileExpect {
    let f = this.files.get(path);
    if (!f) {
      f = { allowed: new Set([null]), acked: null, past: new Set() };
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
        ackedTitle: null,
        renamed: false,
        userTexts: [],
        answers: [],
      };
      this.conversations.set(id, c);
    }
    return c;
  }

  private violate(kind: Violation['kind'], detail: string): void {
    this.violations.push({ kind, detail });
  }

  /** Feeds one line of the workload (intent, ack, fail). */
  line(line: Line): void {
    if (line.t === 'intent') {
      this.pending.set(line.n, line.intent);
      const i = line.intent;
      if (i.kind === 'memory') for (const p of i.paths) this.file(p.path).allowed.add(p.state);
      else if (i.kind === 'rename-conversation') this.conversation(i.conversationId).titles?.add(i.title);
      else if (i.kind === 'delete-conversation') this.conversation(i.conversationId).maybeDeleted = true;
    } else if (line.t === 'ack') this.ack(line);
    else if (line.t === 'fail') this.fail(line);
  }

  private ack(line: Extract<Line, { t: 'ack' }>): void {
    const i = this.pending.get(line.n);
    this.pending.delete(line.n);
    if (!i) return;
    if (i.kind === 'memory') {
      for (const p of i.paths) {
        const f = this.file(p.path);
        f.acked = p.state;
        f.allowed = new Set([p.state]);
        f.past.add(p.state);
      }
    } else if (i.kind === 'send' && line.conversationId) {
      const c = this.conversation(line.conversationId);
      c.userTexts.push(i.text);
      if (line.answer) c.answers.push(line.answer);
    } else if (i.kind === 'rename-conversation') {
      const c = this.conversation(i.conversationId);
      c.ackedTitle = i.title;
      c.titles = new Set([i.title]);
      c.renamed = true;
    } else if (i.kind === 'delete-conversation') this.conversation(i.conversationId).deleted = true;
  }

  private fail(line: Extract<Line, { t: 'fail' }>): void {
    const i = this.pending.get(line.n);
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
      for (const p of i.paths) this.file(p.path).allowed = new Set([this.file(p.path).acked]);
    else if (i.kind === 'rename-conversation') {
      const c = this.conversation(i.conversationId);
      c.titles = c.renamed && c.ackedTitle !== null ? new Set([c.ackedTitle]) : null;
    } else if (i.kind === 'delete-conversation') this.conversation(i.conversationId).maybeDeleted = false;
  }

  /** Compares what a restart found; afterwards, what it found is the new baseline. */
  state(found: StateLine, round: string): void {
    const onDisk = new Map(found.files.map((f) => [f.path, f.hash]));
    for (const path of new Set([...this.files.keys(), ...onDisk.keys()])) {
      const f = this.file(path);
      const state = onDisk.get(path) ?? null;
      if (!f.allowed.has(state)) {
        const was = [...f.allowed].map(short).join(' or ');
        if (state === null || f.past.has(state))
          this.violate('lost', `${round}: ${path} holds ${short(state)}, acknowledged as ${was}`);
        else
          this.violate(
            'torn',
            `${round}: ${path} holds ${short(state)}, a version nobody wrote (expected ${was})`,
          );
      }
      f.acked = state;
      f.allowed = new Set([state]);
      f.past.add(state);
    }
    for (const m of found.journalMismatch) this.violate('torn', `${round}: ${m.path}: ${m.detail}`);
    for (const m of found.pagedMismatch ?? [])
      this.violate('torn', `${round}: conversation ${m.id} pages differ from its transcript: ${m.detail}`);
    for (const t of found.temps)
      this.violate('torn', `${round}: a temp file is left in the memory folder: ${t}`);

    const seen = new Map(found.conversations.map((c) => [c.id, c]));
    for (const id of seen.keys()) this.conversation(id);
    for (const [id, c] of this.conversations) this.conversationFound(id, c, seen.get(id), round);
    this.pending.clear();
  }

  private conversationFound(
    id: string,
    c: ConversationExpect,
    found: ConversationSnapshot | undefined,
    round: string,
  ): void {
    if (!found) {
      if (!c.deleted && !c.maybeDeleted) this.violate('lost', `${round}: conversation ${id} is gone`);
      c.deleted = true;
      return;
    }
    if (c.deleted) this.violate('lost', `${round}: deleted conversation ${id} is back`);
    if (c.titles && !c.titles.has(found.title))
      this.violate(
        'lost',
        `${round}: conversation ${id} is titled "${found.title}", acknowledged "${c.ackedTitle}"`,
      );
    for (const t of c.userTexts)
      if (!found.userTexts.includes(t))
        this.violate('lost', `${round}: conversation ${id} lost the message "${t}"`);
    for (const a of c.answers)
      if (!found.assistantTexts.includes(a))
        this.violate('lost', `${round}: conversation ${id} lost the answer "${a}"`);
    c.deleted = false;
    c.maybeDeleted = false;
    c.titles = c.renamed ? new Set([found.title]) : null;
    c.ackedTitle = found.title;
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

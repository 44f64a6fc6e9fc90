// The random mix a fault worker runs: chats, memory writes by the model (tool_use) and by the user (the
// panel's handlers), renames, deletes, reviews in "ask me" mode and compactions. Seeded: a seed and the
// state the worker found give the same operations again.

/** mulberry32: small, fast, good enough to pick operations. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Op =
  | { kind: 'chat-new'; text: string }
  | { kind: 'chat'; conversationId: string; text: string }
  | { kind: 'model-create'; conversationId: string | null; path: string; content: string }
  | { kind: 'model-replace'; conversationId: string | null; path: string; oldStr: string; newStr: string }
  | { kind: 'model-delete'; conversationId: string | null; path: string }
  | { kind: 'model-rename'; conversationId: string | null; path: string; newPath: string }
  | { kind: 'panel-write'; path: string; content: string }
  | { kind: 'panel-rename'; path: string; newPath: string }
  | { kind: 'panel-delete'; path: string }
  | {
      kind: 'review';
      conversationId: string | null;
      path: string;
      content: string;
      decision: 'approve' | 'edit' | 'reject';
      edited: string;
    }
  | { kind: 'compact'; conversationId: string }
  | { kind: 'rename-conversation'; conversationId: string; title: string }
  | { kind: 'delete-conversation'; conversationId: string };

export const PATHS = [
  ...Array.from({ length: 6 }, (_, i) => `/memories/n${i}.md`),
  ...Array.from({ length: 3 }, (_, i) => `/memories/topics/t${i}.md`),
];

export interface Known {
  files: ReadonlyMap<string, string>;
  conversations: readonly string[];
}

export class Workload {
  private readonly random: () => number;
  private count = 0;

  constructor(
    private readonly seed: number,
    private readonly maxConversations = 5,
  ) {
    this.random = rng(seed);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  /** Unique content (so every version has its own hash), from one line to several KB. */
  content(tag: string): string {
    const n = this.count++;
    const lines = [`# ${tag} ${this.seed}-${n}`, ''];
    const filler = Math.floor(this.random() ** 3 * 120);
    for (let i = 0; i < filler; i++) lines.push(`- fact ${n}.${i}: ${'lorem ipsum '.repeat(1 + (i % 5))}`);
    lines.push(`- marker m${this.seed}x${n}`);
    return `${lines.join('\n')}\n`;
  }

  next(known: Known): Op {
    const files = [...known.files.keys()];
    const convs = known.conversations;
    const conv = (): string | null => (convs.length > 0 && this.random() < 0.8 ? this.pick(convs) : null);
    const free = PATHS.filter((p) => !known.files.has(p));
    const r = this.random() * 100;
    const text = `message ${this.seed}-${this.count++}`;
    if (convs.length > this.maxConversations && r < 30)
      return { kind: 'delete-conversation', conversationId: this.pick(convs) };
    if (r < 8 || convs.length === 0) return { kind: 'chat-new', text };
    if (r < 18) return { kind: 'chat', conversationId: this.pick(convs), text };
    if (r < 32 && free.length > 0)
      return {
        kind: 'model-create',
        conversationId: conv(),
        path: this.pick(free),
        content: this.content('model'),
      };
    if (r < 40 && files.length > 0) {
      const path = this.pick(files);
      const marker = /- marker (m\S+)/.exec(known.files.get(path)!)?.[1];
      if (marker) {
        const newStr = `m${this.seed}x${this.count++}`;
        return { kind: 'model-replace', conversationId: conv(), path, oldStr: marker, newStr };
      }
    }
    if (r < 44 && files.length > 2)
      return { kind: 'model-delete', conversationId: conv(), path: this.pick(files) };
    if (r < 48 && files.length > 0 && free.length > 0)
      return {
        kind: 'model-rename',
        conversationId: conv(),
        path: this.pick(files),
        newPath: this.pick(free),
      };
    if (r < 62) {
      const path = this.random() < 0.7 && files.length > 0 ? this.pick(files) : this.pick(PATHS);
      return { kind: 'panel-write', path, content: this.content('user') };
    }
    if (r < 66 && files.length > 0 && free.length > 0)
      return { kind: 'panel-rename', path: this.pick(files), newPath: this.pick(free) };
    if (r < 70 && files.length > 2) return { kind: 'panel-delete', path: this.pick(files) };
    if (r < 80 && free.length > 0) {
      const decision = this.pick(['approve', 'edit', 'reject'] as const);
      return {
        kind: 'review',
        conversationId: conv(),
        path: this.pick(free),
        content: this.content('proposed'),
        decision,
        edited: this.content('edited'),
      };
    }
    if (r < 87) return { kind: 'compact', conversationId: this.pick(convs) };
    if (r < 93)
      return { kind: 'rename-conversation', conversationId: this.pick(convs), title: `Title ${text}` };
    if (convs.length > 2 && r < 96) return { kind: 'delete-conversation', conversationId: this.pick(convs) };
    return { kind: 'chat', conversationId: this.pick(convs), text };
  }
}

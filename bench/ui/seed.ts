// Raw generators for the UI benchmarks: a conversation JSONL in the format of electron/core/conversations
// (a meta line, then one `msg` line per message) and plain memory files on disk, written straight into a
// data dir before the app starts, so seeding costs nothing in the measured part.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const WORDS =
  'the quick brown fox jumps over a lazy dog while memory keeps small notes about tea dinner plans projects and travel'.split(
    ' ',
  );

/** Deterministic filler text: the same seed gives the same words. */
export function filler(seed: number, words: number): string {
  const out: string[] = [];
  let x = seed * 2654435761;
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

export interface SeededConversation {
  id: string;
  title: string;
  /** Text unique to the last message (what the first screen must show). */
  lastText: string;
}

export function seedConversation(
  dataDir: string,
  messages: number,
  id = `bench-${messages}`,
  title = `Benchmark ${messages} messages`,
  /** Where the filler's seeds start: another start gives other texts (the window caches each render). */
  textSeed = 0,
): SeededConversation {
  const dir = path.join(dataDir, 'conversations');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const start = Date.parse('2026-01-01T09:00:00Z');
  const lines: string[] = [
    JSON.stringify({ t: 'meta', v: 1, id, title, createdAt: new Date(start).toISOString(), memory: true }),
  ];
  let lastText = '';
  for (let i = 0; i < messages; i++) {
    const at = new Date(start + i * 30_000).toISOString();
    const user = i % 2 === 0;
    // Mixed lengths and some Markdown, like a real chat: short questions, longer answers with lists/code.
    const n = i + textSeed;
    const body = user
      ? `Question ${i}: ${filler(n, 12)}?`
      : `Answer ${i}. ${filler(n, 60)}\n\n- ${filler(n + 1, 8)}\n- ${filler(n + 2, 8)}\n\n\`\`\`ts\nconst n${n} = ${i};\n\`\`\``;
    if (i === messages - 1) lastText = user ? `Question ${i}:` : `Answer ${i}.`;
    lines.push(
      JSON.stringify({
        t: 'msg',
        id: `m${i}`,
        kind: user ? 'user' : 'assistant',
        role: user ? 'user' : 'assistant',
        content: [{ type: 'text', text: body }],
        at,
        ...(user ? { text: body } : {}),
      }),
    );
  }
  writeFileSync(path.join(dir, `${id}.jsonl`), lines.join('\n') + '\n', { mode: 0o600 });
  return { id, title, lastText };
}

/** `count` Markdown files under DATA_DIR/memories, spread over folders of 50 (named `${prefix}topic-NNN`). */
export function seedMemory(dataDir: string, count: number, prefix = ''): string[] {
  const root = path.join(dataDir, 'memories');
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const folder = `${prefix}topic-${String(Math.floor(i / 50)).padStart(3, '0')}`;
    const dir = path.join(root, folder);
    if (i % 50 === 0) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const name = `note-${String(i).padStart(5, '0')}.md`;
    writeFileSync(path.join(dir, name), `# Note ${i}\n\n- ${filler(i, 10)}\n- ${filler(i + 7, 6)}\n`, {
      mode: 0o600,
    });
    paths.push(`/memories/${folder}/${name}`);
  }
  return paths;
}

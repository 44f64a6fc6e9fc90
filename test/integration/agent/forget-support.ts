// Shared by the forget tests: a memory file whose content reaches conversations by every path (backfill,
// view, str_replace, memory_search, a note about an outside edit, a local summary, the model's own words),
// and a search of the whole data folder, raw bytes, for any of it.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { text, toolUse, type LoggedRequest } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, send } from './harness.js';

export const SECRET = 'zebra-quartz-4471';
const ALLERGY = `Allergic to penicillin since childhood (${SECRET})`;
const BLOOD = 'Blood type O negative, noted by the clinic';
const PILLS = 'Takes lisinopril every morning with breakfast';
const DOCTOR = 'Sees Dr. Okafor at the Riverside clinic yearly';
export const V1 = `# Health\n\n- ${ALLERGY}\n- ${BLOOD}\n- ok\n`;
export const V3 = `# Health\n\n- ${ALLERGY}\n- ${BLOOD}\n- ${PILLS}\n- ${DOCTOR}\n`;
/** Every substantial passage of every version the file had. */
export const PASSAGES = [ALLERGY, BLOOD, PILLS, DOCTOR];
export const UNRELATED = 'Tomatoes planted in May in the back garden';

/** For the faces' forget tests: a file, a passage of it a reply quotes, and a word of that passage. */
export const HEALTH = '/memories/health.md';
export const PASSAGE = 'Allergic to penicillin since childhood, says the clinic';
export const WORD = 'penicillin';

const isSummarizer = (r: LoggedRequest): boolean =>
  typeof r.body.system === 'string' && r.body.system.includes('You summarize');

/**
 * Two conversations that hold copies of /memories/health.md (renamed to /memories/medical/health.md at
 * the end). Returns their ids.
 */
export async function seedConversations(h: Harness): Promise<{ a: string; b: string }> {
  const memory = h.core.ctx.memory;
  await memory.create('/memories/health.md', V1, { kind: 'user' });
  await memory.create('/memories/garden.md', `${UNRELATED}\n`, { kind: 'user' });
  h.fake.enqueue(
    toolUse({ name: 'memory', input: { command: 'view', path: '/memories/health.md' } }),
    toolUse({
      name: 'memory',
      input: { command: 'str_replace', path: '/memories/health.md', old_str: '- ok', new_str: `- ${PILLS}` },
    }),
    toolUse({ name: 'memory_search', input: { query: 'lisinopril' } }),
    text(`Noted. ${BLOOD}. I also see ${UNRELATED}.`),
  );
  const first = await send(h, 'What do you know about my health?');
  const a = first.res.conversationId;
  // The user edits the file in the panel: the next message of A carries a note with the new content.
  const current = await memory.read('/memories/health.md');
  await h.core.handlers['memory.write'](
    { path: '/memories/health.md', content: V3, baseVersion: current.version },
    call,
  );
  await send(h, 'Anything new?', a);
  // A local summary quoting the file.
  const remove = h.fake.rule((r) =>
    isSummarizer(r) ? text(`SUMMARY: ${ALLERGY}; ${PILLS}. Garden: ${UNRELATED}.`) : undefined,
  );
  const compact = await h.core.handlers['context.compact']({ conversationId: a }, call);
  await h.finished(compact.runId);
  remove();
  await h.core.handlers['memory.rename'](
    { path: '/memories/health.md', newPath: '/memories/medical/health.md' },
    call,
  );
  // A new conversation: its backfill holds the file under its new name.
  const second = await send(h, 'Hi again');
  return { a, b: second.res.conversationId };
}

/** Lock folders and temp files come and go while the backend runs: one gone meanwhile held nothing. */
const gone = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

async function* filesUnder(dir: string): AsyncGenerator<string> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if (gone(error)) return [];
    throw error;
  });
  for (const entry of entries) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(p);
    else if (entry.isFile()) yield p;
  }
}

/** Every file of the data folder (recursively, hidden ones too) that holds `needle`, raw or JSON-escaped. */
export async function filesHolding(dataDir: string, needles: readonly string[]): Promise<string[]> {
  const forms = needles
    .flatMap((n) => [n, JSON.stringify(n).slice(1, -1)])
    .map((n) => Buffer.from(n, 'utf8'));
  const out: string[] = [];
  for await (const file of filesUnder(dataDir)) {
    const bytes = await readFile(file).catch((error: unknown) => {
      if (gone(error)) return Buffer.alloc(0);
      throw error;
    });
    if (forms.some((f) => bytes.includes(f))) out.push(path.relative(dataDir, file));
  }
  return out;
}

/** The content is nowhere in the data folder; the unrelated file's content still is. */
export async function expectForgottenEverywhere(dataDir: string): Promise<void> {
  expect(await filesHolding(dataDir, [...PASSAGES, SECRET, V1, V3])).toEqual([]);
  expect((await filesHolding(dataDir, [UNRELATED])).length).toBeGreaterThan(1);
}

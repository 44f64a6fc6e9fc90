// The space registry on a real temp data folder: Personal's lazy space.json, unique names, the trash.
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countSpace, PERSONAL_ID, SpaceRegistry, spaceDir } from '../../../electron/core/spaces/index.js';
import { TRASH_KEEP_DAYS } from '../../../shared/channels/spaces.js';

let dir: string;
let registry: SpaceRegistry;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mnemo-spaces-'));
  registry = new SpaceRegistry(dir);
});
afterEach(async () => {
  await registry.close();
  rmSync(dir, { recursive: true, force: true });
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (e: Error) => e.message,
  );

describe('space registry', () => {
  it('lists Personal on a fresh data folder without writing anything', async () => {
    const spaces = await registry.list();
    expect(spaces.map((s) => [s.id, s.name])).toEqual([[PERSONAL_ID, 'Personal']]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('creates a space complete: its folders and space.json in DIR/spaces/<id>', async () => {
    const work = await registry.create({ name: '  Work   stuff ' });
    expect(work.name).toBe('Work stuff');
    const folder = path.join(dir, 'spaces', work.id);
    expect(spaceDir(dir, work.id)).toBe(folder);
    expect(readdirSync(folder).sort()).toEqual(['conversations', 'memories', 'memory-journal', 'space.json']);
    expect(JSON.parse(readFileSync(path.join(folder, 'space.json'), 'utf8'))).toEqual({
      v: 1,
      id: work.id,
      name: 'Work stuff',
      colour: work.colour,
      created: work.created,
    });
    expect((await registry.list()).map((s) => s.name)).toEqual(['Personal', 'Work stuff']);
    expect(await registry.find('WORK STUFF')).toEqual(work);
  });

  it.each([
    ['work', 'Work'],
    ['WORK', 'Work'],
    ['STRASSE', 'Straße'],
    ['Cafe\u0301', 'Café'],
    ['personal', 'Personal'],
  ])('refuses %s while %s exists (case and Unicode form do not count)', async (second, first) => {
    if (first !== 'Personal') await registry.create({ name: first });
    expect(await refusal(registry.create({ name: second }))).toMatch(/There is a space named .* already/);
    expect((await registry.list()).length).toBe(first === 'Personal' ? 1 : 2);
  });

  it.each([
    ['', /needs a name/],
    ['   ', /needs a name/],
    ['x'.repeat(61), /at most 60 characters/],
    ['a\u0000b', /control characters/],
    ['a\u202eb', /invisible characters/],
    ['zero\u200bwidth', /invisible characters/],
  ])('refuses the name %j', async (name, message) => {
    expect(await refusal(registry.create({ name }))).toMatch(message);
    expect(
      existsSync(path.join(dir, 'spaces'))
        ? readdirSync(path.join(dir, 'spaces')).filter((n) => !n.startsWith('.'))
        : [],
    ).toEqual([]);
  });

  it('renames and recolours Personal by writing DIR/space.json, and refuses to delete it', async () => {
    await registry.rename(PERSONAL_ID, 'Home');
    await registry.recolour(PERSONAL_ID, '#16A34A');
    const file = JSON.parse(readFileSync(path.join(dir, 'space.json'), 'utf8'));
    expect(file).toMatchObject({ id: 'personal', name: 'Home', colour: '#16a34a' });
    expect(await refusal(registry.delete(PERSONAL_ID))).toMatch(/Personal cannot be deleted/);
    expect(await refusal(registry.recolour(PERSONAL_ID, 'red'))).toMatch(/#rrggbb/);
    // Renaming to its own name in another case is allowed; to another space's name is not.
    await registry.rename(PERSONAL_ID, 'HOME');
    const work = await registry.create({ name: 'Work' });
    expect(await refusal(registry.rename(work.id, 'home'))).toMatch(/There is a space named HOME already/);
  });

  it('keeps per-space settings in space.json; null goes back to the global setting', async () => {
    const work = await registry.create({ name: 'Work' });
    await registry.configure(work.id, { memoryWriteMode: 'read-only', backfillBudgetTokens: 10 });
    expect(registry.getSync(work.id)?.settings).toEqual({
      memoryWriteMode: 'read-only',
      backfillBudgetTokens: 10,
    });
    await registry.configure(work.id, { memoryWriteMode: null });
    expect((await registry.get(work.id))?.settings).toEqual({ backfillBudgetTokens: 10 });
    expect(await refusal(registry.configure(work.id, { backfillBudgetTokens: -1 }))).toMatch(
      /Invalid space setting/,
    );
  });

  it('deletes to the trash, restores, and empties the trash later', async () => {
    const work = await registry.create({ name: 'Work' });
    writeFileSync(path.join(dir, 'spaces', work.id, 'memories', 'a.md'), 'kept');
    const trashed = await registry.delete(work.id);
    expect(trashed.name).toBe('Work');
    expect((await registry.list()).map((s) => s.id)).toEqual([PERSONAL_ID]);
    expect((await registry.trashed()).map((t) => [t.id, t.name])).toEqual([[work.id, 'Work']]);
    expect(JSON.stringify(await registry.trashed())).not.toContain(dir);
    // Kept for TRASH_KEEP_DAYS: what "Recently deleted" shows, and what emptying goes by.
    const [listed] = await registry.trashed();
    expect(Date.parse(listed!.keptUntil) - Date.parse(listed!.deletedAt)).toBe(TRASH_KEEP_DAYS * 86_400_000);
    expect(trashed.keptUntil).toBe(listed!.keptUntil);
    // A new space took the name meanwhile: restoring says so and changes nothing.
    const other = await registry.create({ name: 'work' });
    expect(await refusal(registry.restore(work.id))).toMatch(/There is a space named work already/);
    await registry.rename(other.id, 'Other');
    await registry.restore(work.id);
    expect(readFileSync(path.join(dir, 'spaces', work.id, 'memories', 'a.md'), 'utf8')).toBe('kept');
    await registry.delete(work.id);
    expect(await registry.emptyTrash()).toBe(0); // still within the keep window
    expect(await registry.emptyTrash(0, Date.now() + 1)).toBe(1);
    expect(await registry.trashed()).toEqual([]);
    expect(await refusal(registry.restore(work.id))).toMatch(/not in the trash/);
  });

  it('ignores what is not a complete space: temp folders, a folder without space.json, a forged id', async () => {
    const spaces = path.join(dir, 'spaces');
    mkdirSync(path.join(spaces, '.tmp-abcdef123456', 'memories'), { recursive: true });
    mkdirSync(path.join(spaces, 'abcdef123456'), { recursive: true });
    mkdirSync(path.join(spaces, 'bbbbbbbbbbbb'), { recursive: true });
    writeFileSync(
      path.join(spaces, 'bbbbbbbbbbbb', 'space.json'),
      JSON.stringify({ v: 1, id: 'cccccccccccc', name: 'X', colour: '#000000', created: 'now' }),
    );
    mkdirSync(path.join(spaces, '..evil'), { recursive: true });
    expect((await registry.list()).map((s) => s.id)).toEqual([PERSONAL_ID]);
    // The next change removes the temp folder a crash left.
    await registry.create({ name: 'Work' });
    expect(existsSync(path.join(spaces, '.tmp-abcdef123456'))).toBe(false);
  });

  it('counts conversations and memory files from folder listings', async () => {
    const work = await registry.create({ name: 'Work' });
    const folder = spaceDir(dir, work.id);
    writeFileSync(path.join(folder, 'conversations', 'abc.jsonl'), '');
    writeFileSync(path.join(folder, 'conversations', 'not a conversation.txt'), '');
    mkdirSync(path.join(folder, 'memories', 'sub'));
    writeFileSync(path.join(folder, 'memories', 'a.md'), 'a');
    writeFileSync(path.join(folder, 'memories', 'sub', 'b.md'), 'b');
    writeFileSync(path.join(folder, 'memories', '.hidden'), 'x');
    expect(await countSpace(dir, work.id)).toEqual({ conversations: 1, memoryFiles: 2 });
    expect(await countSpace(dir, PERSONAL_ID)).toEqual({ conversations: 0, memoryFiles: 0 });
  });

  it('two registries on one folder (two processes) never create two spaces of one name', async () => {
    const second = new SpaceRegistry(dir);
    const results = await Promise.allSettled([
      registry.create({ name: 'Work' }),
      second.create({ name: 'work' }),
      registry.create({ name: 'WORK' }),
    ]);
    await second.close();
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await registry.list()).length).toBe(2);
  });
});

// A space is a wall, as the CLI shows it: real `node dist/electron/cli.js` processes against the fake API.
// A chat in Work that writes memory leaves every byte, stat and lock of Personal as it was (Personal's
// folders are the data folder's own, so a process that opens its context takes Personal's memory lock and
// rewrites its journal state); --spaces lists every space and changes nothing of any of them. Each run is
// watched while it runs, so a lock taken and given back within the run is caught, not just what it left.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAnthropic,
  startFakeAnthropic,
  text,
  toolUse,
} from '../../fixtures/fake-anthropic/index.js';
import { assertCliBuilt, cliEnv, type CliResult, runCli } from '../support/cli-process.js';
import { type RootFilter, snapshotTree, watchTree } from '../support/folder-watch.js';

/** The data folder's entries that belong to no space: settings, the key, logs, the other spaces, sync. */
const GLOBAL = new Set(['config.json', 'api-key', 'logs', 'window-state.json', 'spaces', 'sync']);
/** Personal is whatever else is at the data folder's root: memories/, memory-journal/, conversations/, space.json. */
const personal: RootFilter = (name) => !GLOBAL.has(name);
/** Every space, Personal and the others (the log and the settings file are the process's own). */
const everySpace: RootFilter = (name) => name !== 'logs' && name !== 'config.json';

let fake: FakeAnthropic;
let home: string;
let dataDir: string;

const cli = (args: string[]): Promise<CliResult> =>
  runCli(['--data-dir', dataDir, ...args], cliEnv(home, fake.url));

const writeMemory = (file: string, content: string, answer: string) =>
  fake.enqueue(
    toolUse({ name: 'memory', input: { command: 'create', path: `/memories/${file}`, file_text: content } }),
    text(answer),
  );

/** Runs the CLI with the tree of `keep` watched; returns its result and every change seen in that tree. */
async function watched(
  keep: RootFilter,
  args: string[],
): Promise<{ result: CliResult; changes: string[]; before: unknown; after: unknown }> {
  const before = await snapshotTree(dataDir, keep);
  const watch = await watchTree(dataDir, keep);
  try {
    const result = await cli(args);
    const changes = await watch.changes();
    return { result, changes, before, after: await snapshotTree(dataDir, keep) };
  } finally {
    await watch.close();
  }
}

const workDir = async (): Promise<string> => {
  const ids = (await readdir(path.join(dataDir, 'spaces'))).filter((n) => !n.startsWith('.'));
  expect(ids).toHaveLength(1);
  return path.join(dataDir, 'spaces', ids[0]!);
};

beforeAll(async () => {
  assertCliBuilt();
  fake = await startFakeAnthropic();
  home = await mkdtemp(path.join(tmpdir(), 'mnemo-wall-'));
  dataDir = path.join(home, 'data');
  // Personal with something in each of its folders: a memory file, its journal, a conversation, space.json.
  writeMemory('me.md', 'Personal: tea, no sugar\n', 'Noted.');
  const seeded = await cli(['Remember how I take my tea']);
  expect(seeded.stderr).toBe('');
  expect(seeded.code).toBe(0);
  expect((await cli(['--rename-space', 'Personal', 'Home'])).code).toBe(0);
  const names = await readdir(dataDir);
  expect(names).toEqual(
    expect.arrayContaining(['memories', 'memory-journal', 'conversations', 'space.json']),
  );
}, 120_000);
afterAll(async () => {
  await fake?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('a CLI run in one space leaves Personal alone', () => {
  it('a chat in Work that creates Work and writes its memory changes no byte, stat or lock of Personal', async () => {
    fake.reset();
    writeMemory('client.md', 'Work: Acme NDA\n', 'Noted for work.');
    const run = await watched(personal, ['--space', 'Work', 'Remember the Acme NDA']);
    expect(run.result.stderr).toBe('');
    expect(run.result.code).toBe(0);
    expect(run.result.stdout).toMatch(/^Created space Work\n/);
    expect(run.changes).toEqual([]);
    expect(run.after).toEqual(run.before);
    // The run did write, in Work.
    expect(await readFile(path.join(await workDir(), 'memories', 'client.md'), 'utf8')).toBe(
      'Work: Acme NDA\n',
    );
  }, 60_000);

  it('a second chat in Work, continuing its conversation and writing again, leaves Personal alone too', async () => {
    fake.reset();
    writeMemory('deadline.md', 'Work: due Friday\n', 'Noted the deadline.');
    const run = await watched(personal, ['--space', 'work', '--continue', 'It is due Friday']);
    expect(run.result.stderr).toBe('');
    expect(run.result.code).toBe(0);
    expect(run.changes).toEqual([]);
    expect(run.after).toEqual(run.before);
    const body = JSON.stringify(fake.messageRequests()[0]!.body);
    expect(body).toContain('Remember the Acme NDA');
    expect(body).not.toContain('tea, no sugar');
    expect(await readFile(path.join(await workDir(), 'memories', 'deadline.md'), 'utf8')).toBe(
      'Work: due Friday\n',
    );
  }, 60_000);

  it('--spaces lists every space with its counts and changes nothing of any space', async () => {
    const run = await watched(everySpace, ['--spaces']);
    expect(run.result.stderr).toBe('');
    expect(run.result.code).toBe(0);
    expect(run.result.stdout).toBe(
      'Home  1 conversation, 1 memory file\nWork  1 conversation, 2 memory files\n',
    );
    expect(run.changes).toEqual([]);
    expect(run.after).toEqual(run.before);
  }, 60_000);

  it('a chat in Personal does write there (the watch sees what a run in a space does)', async () => {
    fake.reset();
    writeMemory('milk.md', 'Personal: oat milk\n', 'Noted the milk.');
    const run = await watched(personal, ['Remember: oat milk']);
    expect(run.result.code).toBe(0);
    expect(run.changes).toContainEqual(expect.stringMatching(/^memories\/milk\.md /));
    expect(run.changes).toContainEqual(expect.stringMatching(/^memory-journal\//));
    expect(run.after).not.toEqual(run.before);
  }, 60_000);
});

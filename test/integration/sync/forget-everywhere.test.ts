// "Forget permanently" as a person with two devices meets it, through the CLI (each run a process of its
// own) against the loopback git server: a forget on one device is not undone by the other's sync, even
// where that device had edited the file since; an open sync conflict about the file goes with it; the text
// is left in no byte of either data folder (git objects decompressed) nor in the remote's reachable
// history; and a file created at that path afterwards is a new file that syncs like any other.
import { mkdirSync, readFileSync, existsSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropic, text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { type GitServer } from '../../fixtures/git-server/index.js';
import { placesHolding, reachableObjects } from '../support/data-bytes.js';
import { cliRig } from './cli-rig.js';

const rig = cliRig('forget');
let fake: FakeAnthropic;
let server: GitServer;
beforeAll(() => ({ fake, server } = rig));
const { runCli, folder } = rig;

let n = 0;
async function twoDevices(): Promise<{ a: string; b: string; repo: string }> {
  const repo = `forget-${++n}`;
  const url = server.createRepo(repo);
  const a = folder('a');
  const b = folder('b');
  for (const [dir, device] of [
    [a, 'laptop'],
    [b, 'desktop'],
  ] as const) {
    const r = await runCli(dir, ['--sync-remote', url], { MNEMO_SYNC_DEVICE: device });
    expect(r.stderr).toBe('');
  }
  return { a, b, repo };
}

async function ok(dir: string, args: string[]): Promise<string> {
  const r = await runCli(dir, args);
  expect(r.stderr, r.stdout).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

const remoteHolds = (repo: string, secret: string): boolean =>
  reachableObjects(server.repoDir(repo)).includes(Buffer.from(secret));

describe('forget permanently, on every device', { timeout: 180_000 }, () => {
  it("the other device's sync never brings it back, even with an edit made there before the forget arrived", async () => {
    const { a, b, repo } = await twoDevices();
    const SECRET = 'Biscuit the cat hates tuna';
    fake.reset();
    fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/pets.md', file_text: `- ${SECRET}\n` },
      }),
      text('Noted.'),
    );
    const chat = await runCli(a, ['Remember my cat']);
    expect(chat.code).toBe(0);
    expect(chat.stderr).toContain('[sync] sent: /memories/pets.md');
    expect((await ok(b, ['--sync'])).toString()).toContain('received: /memories/pets.md (added)');
    // B edits the file and does not sync: this edit is a version of the forgotten file too.
    const EDIT = 'and loves smoked salmon';
    writeFileSync(path.join(b, 'memories', 'pets.md'), `- ${SECRET} ${EDIT}\n`);
    expect(placesHolding(b, EDIT)).not.toEqual([]);

    const forgot = await ok(a, ['--forget-permanently', '/memories/pets.md', '--yes']);
    expect(forgot).toMatch(
      /^Forgot \/memories\/pets\.md permanently: it is erased here, and on the other devices/m,
    );
    // Gone from every byte of A's folder at once, its git folder's history included.
    expect(placesHolding(a, SECRET)).toEqual([]);
    expect(remoteHolds(repo, SECRET)).toBe(true);
    await ok(a, ['--sync']);
    expect(remoteHolds(repo, SECRET)).toBe(false);

    const rb = await ok(b, ['--sync']);
    expect(rb).toMatch(
      /^ {2}forgotten: \/memories\/pets\.md \(forgotten permanently on laptop, which sent it; erased here too\)$/m,
    );
    expect(existsSync(path.join(b, 'memories', 'pets.md'))).toBe(false);
    expect(placesHolding(b, SECRET)).toEqual([]);
    expect(placesHolding(b, EDIT)).toEqual([]);
    expect(remoteHolds(repo, EDIT)).toBe(false);

    await ok(a, ['--sync']);
    await ok(b, ['--sync']);
    for (const dir of [a, b]) {
      expect(existsSync(path.join(dir, 'memories', 'pets.md'))).toBe(false);
      expect(placesHolding(dir, SECRET)).toEqual([]);
    }
    expect(remoteHolds(repo, SECRET)).toBe(false);
    expect(remoteHolds(repo, EDIT)).toBe(false);
    // The conversation that wrote it stays, with a marker where the file's text was.
    const conversations = readdirSync(path.join(b, 'conversations')).filter((f) => f.endsWith('.jsonl'));
    expect(conversations).toHaveLength(1);
    expect(readFileSync(path.join(b, 'conversations', conversations[0]!), 'utf8')).toContain(
      '[forgotten by the user]',
    );

    // A file created at that path afterwards is a new file, and travels.
    writeFileSync(path.join(b, 'memories', 'pets.md'), '- Rex the dog.\n');
    expect(await ok(b, ['--sync'])).toContain('sent: /memories/pets.md');
    expect(await ok(a, ['--sync'])).toContain('received: /memories/pets.md (added)');
    expect(readFileSync(path.join(a, 'memories', 'pets.md'), 'utf8')).toBe('- Rex the dog.\n');
  });

  it('an open sync conflict about the file goes with it: "keep theirs" has nothing to bring back', async () => {
    const { a, b, repo } = await twoDevices();
    const file = (dir: string) => path.join(dir, 'memories', 'door.md');
    writeFileSync(file(a), '- The door code is 4417.\n');
    await ok(a, ['--sync']);
    await ok(b, ['--sync']);
    writeFileSync(file(a), '- The door code is 5521.\n');
    await ok(a, ['--sync']);
    writeFileSync(file(b), '- The door code is 8830.\n');
    expect(await ok(b, ['--sync'])).toContain('conflict: /memories/door.md');
    const conflicts = () =>
      JSON.parse(readFileSync(path.join(b, 'sync', 'personal.conflicts.json'), 'utf8')) as unknown[];
    expect(conflicts()).toHaveLength(1);

    expect(await ok(b, ['--forget-permanently', '/memories/door.md', '--yes'])).toContain(
      'Forgot /memories/door.md permanently',
    );
    expect(conflicts()).toEqual([]);
    for (const code of ['4417', '5521', '8830']) expect(placesHolding(b, `door code is ${code}`)).toEqual([]);
    await ok(b, ['--sync']);
    expect(await ok(a, ['--sync'])).toContain(
      'forgotten: /memories/door.md (forgotten permanently on desktop',
    );
    for (const code of ['4417', '5521', '8830']) {
      expect(placesHolding(a, `door code is ${code}`)).toEqual([]);
      expect(remoteHolds(repo, `door code is ${code}`)).toBe(false);
    }
  });
});

describe('a forget killed while it rebuilds the git folder', { timeout: 120_000 }, () => {
  for (const point of ['purge-before-swap', 'purge-mid-swap']) {
    it(`is finished by the next run (killed at ${point})`, async () => {
      const { a, repo } = await twoDevices();
      const SECRET = 'The spare key is under the blue pot';
      writeFileSync(path.join(a, 'memories', 'key.md'), `- ${SECRET}\n`);
      writeFileSync(path.join(a, 'memories', 'tea.md'), '- Tea, no sugar.\n');
      await ok(a, ['--sync']);
      const killed = await runCli(a, ['--forget-permanently', '/memories/key.md', '--yes'], {
        MNEMO_CRASH_AT: point,
      });
      expect(killed.code).toBeNull();
      // The next run opens the space, finishes the forget and the folder swap, and syncs.
      expect(await ok(a, ['--sync'])).toContain('synced');
      expect(placesHolding(a, SECRET)).toEqual([]);
      expect(remoteHolds(repo, SECRET)).toBe(false);
      expect(readdirSync(path.join(a, 'sync')).filter((n) => /\.git\.purge/.test(n))).toEqual([]);
      expect(await ok(a, ['--sync'])).toContain('is up to date');
      expect(readFileSync(path.join(a, 'memories', 'tea.md'), 'utf8')).toBe('- Tea, no sugar.\n');
    });
  }
});

describe('forgetting from the terminal', { timeout: 60_000 }, () => {
  const seeded = (): string => {
    const dir = folder('t');
    mkdirSync(path.join(dir, 'memories'));
    return dir;
  };

  it('asks first: with no terminal and no --yes it erases nothing and exits 2', async () => {
    const dir = seeded();
    writeFileSync(path.join(dir, 'memories', 'pets.md'), '- A cat.\n');
    for (const flag of ['--forget', '--forget-permanently']) {
      const r = await runCli(dir, [flag, '/memories/pets.md']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/needs a confirmation: run it on a terminal, or add --yes\./);
      expect(readFileSync(path.join(dir, 'memories', 'pets.md'), 'utf8')).toBe('- A cat.\n');
    }
  });

  it('an unknown path is a clear error and changes nothing; a bad one is a usage error', async () => {
    const dir = seeded();
    const r = await runCli(dir, ['--forget-permanently', '/memories/nope.md', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('There is no memory file /memories/nope.md in Personal: nothing was forgotten.\n');
    const bad = await runCli(dir, ['--forget', '/etc/passwd', '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('/etc/passwd');
    const noSpace = await runCli(dir, ['--forget', '/memories/a.md', '--space', 'Nowhere', '--yes']);
    expect(noSpace.code).toBe(2);
    expect(noSpace.stderr).toContain('There is no space named Nowhere');
  });

  it('--forget takes the file out of memory and keeps it in its history; --forget-permanently erases it', async () => {
    const dir = seeded();
    writeFileSync(path.join(dir, 'memories', 'soft.md'), '- Soft forget keeps me restorable.\n');
    writeFileSync(path.join(dir, 'memories', 'hard.md'), '- Hard forget erases me everywhere.\n');
    expect(await ok(dir, ['--forget', '/memories/soft.md', '--yes'])).toBe(
      'Forgot /memories/soft.md: it is out of memory (restorable from its history).\n',
    );
    expect(existsSync(path.join(dir, 'memories', 'soft.md'))).toBe(false);
    expect(placesHolding(dir, 'Soft forget keeps me restorable')).not.toEqual([]);
    expect(await ok(dir, ['--forget-permanently', '/memories/hard.md', '--yes'])).toBe(
      'Forgot /memories/hard.md permanently: it is erased here.\n',
    );
    expect(existsSync(path.join(dir, 'memories', 'hard.md'))).toBe(false);
    expect(placesHolding(dir, 'Hard forget erases me everywhere')).toEqual([]);
  });

  it('works in a named space and leaves the others alone', async () => {
    const dir = seeded();
    writeFileSync(path.join(dir, 'memories', 'same.md'), '- Personal copy.\n');
    fake.reset();
    fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/same.md', file_text: '- Work copy.\n' },
      }),
      text('Noted.'),
    );
    expect((await runCli(dir, ['--space', 'Work', 'Remember'])).code).toBe(0);
    expect(
      await ok(dir, ['--forget-permanently', '/memories/same.md', '--space', 'Work', '--yes']),
    ).toContain('Forgot /memories/same.md permanently');
    expect(readFileSync(path.join(dir, 'memories', 'same.md'), 'utf8')).toBe('- Personal copy.\n');
    expect(placesHolding(dir, 'Work copy')).toEqual([]);
  });
});

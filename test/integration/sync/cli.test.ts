// Sync as a user runs it: two data folders as two devices, each `node dist/electron/cli.js` a process of
// its own, against the loopback git server and the fake Messages API. A fact remembered on A is in B's
// next backfill; a wrong token, a server that is down, a joined remote holding another space, and a
// force-pushed remote each get a clear message and change nothing.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropic, text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { type GitServer } from '../../fixtures/git-server/index.js';
import { cliRig } from './cli-rig.js';

const rig = cliRig('sync-cli');
let fake: FakeAnthropic;
let server: GitServer;
beforeAll(() => ({ fake, server } = rig));
const { runCli, folder } = rig;

let n = 0;
async function twoDevices(): Promise<{ a: string; b: string; url: string; repo: string }> {
  const repo = `cli-${++n}`;
  const url = server.createRepo(repo);
  const a = folder('a');
  const b = folder('b');
  for (const [dir, device] of [
    [a, 'laptop'],
    [b, 'desktop'],
  ] as const) {
    const r = await runCli(dir, ['--sync-remote', url], { MNEMO_SYNC_DEVICE: device });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }
  return { a, b, url, repo };
}

const FACT = '- Allergic to peanuts: never suggest dishes with peanuts.\n';

describe('sync through the CLI', { timeout: 180_000 }, () => {
  it("a fact A remembers is in B's next backfill", async () => {
    const { a, b } = await twoDevices();
    fake.reset();
    fake.enqueue(
      toolUse({ name: 'memory', input: { command: 'create', path: '/memories/health.md', file_text: FACT } }),
      text('Noted.'),
    );
    const ra = await runCli(a, ['Remember: I am allergic to peanuts']);
    expect(ra.code).toBe(0);
    expect(ra.stderr).toContain('[sync] sent: /memories/health.md');
    fake.reset();
    fake.enqueue(text('How about a salad?'));
    const rb = await runCli(b, ['What should I cook tonight?']);
    expect(rb.code).toBe(0);
    expect(rb.stderr).toContain('[sync] received: /memories/health.md (added)');
    expect(rb.stdout).toMatch(
      /^\[memory backfill\] 1 of 1 files, about \d+ tokens: \/memories\/health\.md$/m,
    );
    const first = fake.messageRequests()[0]!.body;
    expect(JSON.stringify(first.messages)).toContain('Allergic to peanuts');
    // And B's conversation goes back to A at the end of B's run.
    const sa = await runCli(a, ['--sync']);
    expect(sa.code).toBe(0);
    expect(sa.stdout).toMatch(/received: conversation [\w-]+ \(added\)/);
  });

  it('a wrong token: the remote refused it, exit 1, nothing saved or changed', async () => {
    const url = server.createRepo(`cli-${++n}`);
    const a = folder('a');
    mkdirSync(path.join(a, 'memories'), { recursive: true });
    writeFileSync(path.join(a, 'memories', 'x.md'), 'kept\n');
    const r = await runCli(a, ['--sync-remote', url], { MNEMO_SYNC_TOKEN: 'wrong-token' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The remote refused the credentials');
    expect(r.stderr).not.toContain('wrong-token');
    expect(existsSync(path.join(a, 'sync', 'personal.remote.json'))).toBe(false);
    expect(existsSync(path.join(a, 'sync', 'personal.token'))).toBe(false);
    expect(readFileSync(path.join(a, 'memories', 'x.md'), 'utf8')).toBe('kept\n');
    const s = await runCli(a, ['--sync']);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('has no sync remote');
  });

  it('server down: the change waits, exit 1 with the reason; once it is back, it goes', async () => {
    const { a, b } = await twoDevices();
    writeFileSync(path.join(a, 'memories', 'offline.md'), 'written offline\n');
    await server.down();
    try {
      const r = await runCli(a, ['--sync']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('cannot be reached');
    } finally {
      await server.up();
    }
    expect((await runCli(a, ['--sync'])).stdout).toContain('sent: /memories/offline.md');
    const rb = await runCli(b, ['--sync']);
    expect(rb.stdout).toContain('received: /memories/offline.md (added)');
    expect(readFileSync(path.join(b, 'memories', 'offline.md'), 'utf8')).toBe('written offline\n');
  });

  it('joining a remote that holds another space asks first (--yes), then merges both', async () => {
    const a = folder('a');
    const otherRepo = `cli-${++n}`;
    const other = server.createRepo(otherRepo);
    // A's space "Elsewhere" is what the remote holds.
    expect((await runCli(a, ['--sync-remote', other, '--space', 'Elsewhere'])).code).toBe(0);
    expect((await runCli(a, ['--sync', '--space', 'Elsewhere'])).code).toBe(0);
    const e = folder('e');
    mkdirSync(path.join(e, 'memories'), { recursive: true });
    writeFileSync(path.join(e, 'memories', 'mine.md'), 'e has this\n');
    const asked = await runCli(e, ['--sync-remote', other]);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('The remote holds another space, “Elsewhere”');
    expect(asked.stderr).toContain('--yes');
    expect(existsSync(path.join(e, 'sync', 'personal.remote.json'))).toBe(false);
    expect(server.git(otherRepo, ['ls-tree', '-r', '--name-only', 'main'])).not.toContain('mine.md');
    const joined = await runCli(e, ['--sync-remote', other, '--yes']);
    expect(joined.code).toBe(0);
    expect(joined.stdout).toContain('sent: /memories/mine.md');
    const back = await runCli(a, ['--sync', '--space', 'Elsewhere']);
    expect(back.stdout).toContain('received: /memories/mine.md (added)');
  });

  it('a force-pushed remote: nothing local overwritten; push-mine or take-theirs (with a backup)', async () => {
    const { a, b, repo } = await twoDevices();
    writeFileSync(path.join(a, 'memories', 'one.md'), 'one\n');
    await runCli(a, ['--sync']);
    await runCli(b, ['--sync']);
    // Elsewhere, the history is replaced by one whose tree lacks one.md.
    const empty = server.git(repo, ['mktree'], '').trim();
    server.rewriteHistory(repo, empty);
    writeFileSync(path.join(b, 'memories', 'two.md'), 'two\n');
    const r = await runCli(b, ['--sync']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('history was rewritten');
    expect(r.stderr).toContain('--sync-push-mine');
    expect(readFileSync(path.join(b, 'memories', 'one.md'), 'utf8')).toBe('one\n');
    const mine = await runCli(b, ['--sync', '--sync-push-mine']);
    expect(mine.code).toBe(0);
    expect(server.git(repo, ['ls-tree', '-r', '--name-only', 'main'])).toContain('memories/two.md');
    // B's copy still holds the history A knew: A merges as usual.
    expect((await runCli(a, ['--sync'])).stdout).toContain('received: /memories/two.md (added)');
    // Rewritten again; A has a change of its own meanwhile, and takes the remote's copy after a backup.
    server.rewriteHistory(repo);
    writeFileSync(path.join(a, 'memories', 'three.md'), 'three\n');
    expect((await runCli(a, ['--sync'])).code).toBe(1);
    const ra = await runCli(a, ['--sync', '--sync-take-theirs']);
    expect(ra.stderr).toBe('');
    expect(ra.code).toBe(0);
    expect(readFileSync(path.join(a, 'memories', 'two.md'), 'utf8')).toBe('two\n');
    const backups = readdirSync(path.join(a, 'sync', 'personal.backups'));
    expect(backups.length).toBe(1);
    expect(
      readFileSync(path.join(a, 'sync', 'personal.backups', backups[0]!, 'memories', 'three.md'), 'utf8'),
    ).toBe('three\n');
  });

  it("200 notes dropped into the folder by another program sync like the app's own", async () => {
    const { a, b } = await twoDevices();
    mkdirSync(path.join(a, 'memories', 'inbox'), { recursive: true });
    for (let i = 0; i < 200; i++)
      writeFileSync(path.join(a, 'memories', 'inbox', `note-${i}.md`), `note ${i}\n`);
    const ra = await runCli(a, ['--sync']);
    expect(ra.code).toBe(0);
    expect(ra.stdout.match(/sent: \/memories\/inbox\//g)?.length).toBe(200);
    const rb = await runCli(b, ['--sync']);
    expect(rb.code).toBe(0);
    expect(readdirSync(path.join(b, 'memories', 'inbox')).length).toBe(200);
    expect(readFileSync(path.join(b, 'memories', 'inbox', 'note-199.md'), 'utf8')).toBe('note 199\n');
  });
});

// createCore with `openPersonal: false` (what the CLI uses): a backend that works in Work opens Work alone,
// Personal's context appears only when something asks for it, and then it is the same Personal as ever.
// The default still opens Personal before createCore resolves (the app's faces, every existing caller).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAnthropic,
  startFakeAnthropic,
  text,
  toolUse,
} from '../../fixtures/fake-anthropic/index.js';
import { type Core, createCore } from '../../../electron/core/create-core.js';
import { PERSONAL_ID } from '../../../electron/core/spaces/index.js';
import { call, testHost } from '../agent/harness.js';
import { snapshotTree } from '../support/folder-watch.js';
import { follow, ofType, sendIn } from './support.js';

const USER = { kind: 'user' } as const;
const personalFolders = (name: string) => ['memories', 'memory-journal', 'conversations'].includes(name);
let fake: FakeAnthropic;
let base: string;
let dataDir: string;

const start = (openPersonal?: boolean): Promise<Core> =>
  createCore({
    dataDir,
    host: testHost,
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'test-key', HOME: base },
    ...(openPersonal === undefined ? {} : { openPersonal }),
  });

beforeAll(async () => {
  fake = await startFakeAnthropic();
  base = await mkdtemp(path.join(tmpdir(), 'mnemo-lazy-personal-'));
  dataDir = path.join(base, 'data');
  const core = await start();
  await core.ctx.memory.create('/memories/personal.md', 'PERSONAL-CANARY\n', USER);
  await core.close();
});
afterAll(async () => {
  await fake?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe('Personal opened on first use', () => {
  it('the default opens Personal before createCore resolves', async () => {
    const core = await start();
    try {
      expect(core.spaces.isOpen(PERSONAL_ID)).toBe(true);
      expect((await core.spaces.open(PERSONAL_ID)).ctx).toBe(core.ctx);
      expect((await core.ctx.memory.read('/memories/personal.md')).content).toBe('PERSONAL-CANARY\n');
    } finally {
      await core.close();
    }
  });

  it('with openPersonal false, a chat in Work opens and changes nothing of Personal', async () => {
    const before = await snapshotTree(dataDir, personalFolders);
    const core = await start(false);
    try {
      expect(core.spaces.isOpen(PERSONAL_ID)).toBe(false);
      expect(() => core.ctx).toThrow(/Personal is not open/);
      expect(() => core.handlers).toThrow(/Personal is not open/);
      expect(core.settings.apiKey()).toBe('test-key');
      const { space } = await core.spaces.ensure('Work');
      const work = await core.spaces.open(space.id);
      fake.reset();
      fake.enqueue(
        toolUse({
          name: 'memory',
          input: { command: 'create', path: '/memories/w.md', file_text: 'work\n' },
        }),
        text('Done.'),
      );
      const { events } = await sendIn(work, follow(work), 'Remember work');
      expect(ofType(events, 'run.finished')[0]!.status).toBe('done');
      expect(JSON.stringify(fake.messageRequests().map((r) => r.body))).not.toContain('PERSONAL-CANARY');
      expect(core.spaces.isOpen(PERSONAL_ID)).toBe(false);
      expect(await snapshotTree(dataDir, personalFolders)).toEqual(before);
    } finally {
      await core.close();
    }
    expect(await snapshotTree(dataDir, personalFolders)).toEqual(before);
  });

  it('with openPersonal false, Personal opens when asked, and core.ctx and handlers are it', async () => {
    const core = await start(false);
    try {
      const personal = await core.spaces.route(PERSONAL_ID);
      expect(core.ctx).toBe(personal.ctx);
      expect(core.handlers).toBe(personal.handlers);
      expect(core.bus).toBe(personal.bus);
      const listed = await core.handlers['memory.list']({}, call);
      expect(JSON.stringify(listed)).toContain('personal.md');
    } finally {
      await core.close();
    }
  });
});

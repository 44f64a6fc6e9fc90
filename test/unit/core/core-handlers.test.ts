// createCore with a recording host (the HostServices interface is the boundary to the OS: dialogs, the
// shell), exercising the real settings and app handlers on a temp data dir.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../../shared/contract.js';
import { createCore, type Core } from '../../../electron/core/create-core.js';
import type { HostServices } from '../../../electron/core/host.js';

const call = { clientId: 'test' };

function recordingHost() {
  const opened: string[] = [];
  const folders: string[] = [];
  const host: HostServices = {
    kind: 'test',
    saveFile: () => Promise.resolve({ saved: false }),
    pickImport: () => Promise.resolve(null),
    openExternal: (url) => (opened.push(url), Promise.resolve(true)),
    openFolder: (p) => (folders.push(p), Promise.resolve(true)),
  };
  return { host, opened, folders };
}

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

async function start(env: NodeJS.ProcessEnv = {}) {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'mnemo-core-')), 'data');
  const rec = recordingHost();
  core = await createCore({ dataDir, host: rec.host, env, version: '9.9.9' });
  const events: [EventName, unknown][] = [];
  core.bus.subscribe((name, payload) => events.push([name, payload]));
  return { dataDir, core, events, ...rec };
}

describe('createCore', () => {
  it('creates the data dir 0700 and logs its start without the key', async () => {
    const { dataDir, core } = await start({ ANTHROPIC_API_KEY: 'sk-ant-never-logged-42' });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const log = readFileSync(core.log.file, 'utf8');
    expect(log).toContain('core started');
    expect(log).not.toContain('sk-ant-never-logged-42');
  });

  it('app.info reports host kind, version and data dir', async () => {
    const { dataDir, core } = await start();
    expect(await core.handlers['app.info']({}, call)).toEqual({
      version: '9.9.9',
      host: 'test',
      dataDir,
      platform: process.platform,
    });
  });

  it.each([
    ['http://example.com/', /Only https/],
    ['javascript:alert(1)', /Only https/],
    ['file:///etc/passwd', /Only https/],
    ['not a url', /not a valid/],
    ['https://user:pw@example.com/', /user name or password/],
  ])('app.openExternal refuses %s', async (url, message) => {
    const { core, opened } = await start();
    await expect(core.handlers['app.openExternal']({ url }, call)).rejects.toThrow(message);
    expect(opened).toEqual([]);
  });

  it('app.openExternal passes a parsed https URL to the host', async () => {
    const { core, opened } = await start();
    expect(
      await core.handlers['app.openExternal']({ url: 'https://docs.anthropic.com/x?y=1' }, call),
    ).toEqual({
      opened: true,
    });
    expect(opened).toEqual(['https://docs.anthropic.com/x?y=1']);
  });

  it('app.openDataFolder opens the data or memories folder, never a renderer-given path', async () => {
    const { dataDir, core, folders } = await start();
    await core.handlers['app.openDataFolder']({ which: 'memories' }, call);
    await core.handlers['app.openDataFolder']({ which: 'data' }, call);
    expect(folders).toEqual([path.join(dataDir, 'memories'), dataDir]);
  });

  it('settings.set persists, broadcasts settings.changed and never returns the key', async () => {
    const { core, events } = await start();
    const view = await core.handlers['settings.set']({ patch: { theme: 'dark' } }, call);
    expect(view.settings.theme).toBe('dark');
    expect(events).toEqual([['settings.changed', view]]);
    const withKey = await core.handlers['settings.setApiKey']({ apiKey: 'sk-ant-stored-7' }, call);
    expect(withKey.apiKey).toEqual({ hasApiKey: true, source: 'stored', insecureStorage: true });
    expect(JSON.stringify(withKey)).not.toContain('sk-ant-stored-7');
    expect(JSON.stringify(events)).not.toContain('sk-ant-stored-7');
    const reset = await core.handlers['settings.reset']({}, call);
    expect(reset.settings.theme).toBe('system');
  });

  it('memory limits from settings apply at once, without a restart', async () => {
    const { core } = await start();
    expect(core.ctx.memory.limits.fileCapBytes).toBe(100 * 1024);
    await core.handlers['settings.set']({ patch: { memoryFileCapBytes: 2048, staleAfterDays: 7 } }, call);
    expect(core.ctx.memory.limits).toMatchObject({ fileCapBytes: 2048, staleAfterDays: 7 });
    await expect(
      core.handlers['memory.create']({ path: '/memories/big.md', content: 'x'.repeat(4096) }, call),
    ).rejects.toThrow(/above the 2048-byte limit per file/);
    await core.handlers['settings.reset']({}, call);
    expect(core.ctx.memory.limits.fileCapBytes).toBe(100 * 1024);
  });

  it('close aborts running runs and lets them finish before closing the rest', async () => {
    const { core } = await start();
    const order: string[] = [];
    const run = core.ctx.runs.start('conv-1');
    run.signal.addEventListener('abort', () => {
      // An aborted run saves its partial answer asynchronously, then finishes.
      setTimeout(() => {
        order.push('run saved');
        run.finish('aborted');
      }, 30);
    });
    core.onClose(() => void order.push('closer'));
    await core.close();
    expect(run.signal.aborted).toBe(true);
    expect(order).toEqual(['run saved', 'closer']);
  });
});

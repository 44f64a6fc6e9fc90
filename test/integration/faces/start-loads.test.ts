// What each face reads from disk on its way to what a person asked for, recorded by a load hook in the
// child: `--help` reads the entry and the flags' chunk, not the backend; a chat on an empty data folder
// and browser mode up to its ready line read only their own bundle (no file of node_modules), and none of
// the parts that are loaded when first used (the sync engine and git, the zip reader and writer).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, type FakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import { recordLoads, runNode } from './load-recorder.js';
import { entry, READY_URL, ROOT, start, tempDir } from './processes.js';

const BUNDLES = `${pathToFileURL(path.join(ROOT, 'dist/electron')).href}/`;
const LATER = /isomorphic-git|\/engine\.js$|\/zip-reader\.js$|\/export\.js$/;

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());

describe('what a start loads', () => {
  it('cli --help: the entry and the flags, not the backend', async () => {
    const loads = recordLoads();
    const result = await runNode(loads.flags, entry('cli'), ['--help']);
    expect(result.code).toBe(0);
    const files = loads.loaded().map((url) => url.slice(BUNDLES.length));
    expect(files).toContain('chunks/cli/cli-run.js');
    expect(files.filter((f) => f !== 'cli.js' && f !== 'chunks/cli/cli-run.js')).toEqual([
      'chunks/cli/cli-output.js',
    ]);
  });

  it('a chat on an empty data folder: its bundle only, nothing loaded when first used', async () => {
    fake.enqueue(text('Hello back.'));
    const loads = recordLoads();
    const dataDir = path.join(tempDir(), 'data');
    const result = await runNode(loads.flags, entry('cli'), ['--data-dir', dataDir, 'Hello'], {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      HOME: tempDir(),
    });
    expect(result.stdout).toContain('Hello back.');
    expect(result.code).toBe(0);
    const loaded = loads.loaded();
    expect(loaded.filter((url) => !url.startsWith(BUNDLES))).toEqual([]);
    expect(loaded.filter((url) => LATER.test(url))).toEqual([]);
    expect(loaded.some((url) => url.endsWith('/chunks/cli/cli-commands.js'))).toBe(true);
  });

  it('browser mode up to its ready line: its bundle only, nothing loaded when first used', async () => {
    const loads = recordLoads();
    const server = await start(
      entry('web-main'),
      ['--data-dir', path.join(tempDir(), 'data'), '--port', '0'],
      { NODE_OPTIONS: loads.flags.join(' '), ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
      READY_URL,
    );
    const loaded = loads.loaded();
    expect(await server.stop()).toBe(0);
    expect(loaded.filter((url) => !url.startsWith(BUNDLES))).toEqual([]);
    expect(loaded.filter((url) => LATER.test(url))).toEqual([]);
    expect(loaded.some((url) => url.endsWith('/chunks/web-main/web-run.js'))).toBe(true);
  });
});

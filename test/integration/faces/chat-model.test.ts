// `npm run chat -- --model M` (issue 2, point 3: "The default model is … configurable"): without a flag the
// request names the app's setting (the default, or what config.json holds); with --model it names that
// model for this run only, and the stored setting is left as it was. A separate process each time.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/channels/settings.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import { entry, run, tempDir } from './processes.js';

const KEY = 'sk-ant-api03-MODEL-0123456789abcdef';
let fake: FakeAnthropic;

beforeAll(async () => {
  fake = await startFakeAnthropic({ apiKeys: [KEY] });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const env = () => ({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY });
const lastModel = () => (fake.messageRequests().at(-1)!.body as { model: string }).model;

describe('npm run chat --model', () => {
  it('uses the default model, the stored setting, then --model for one run without storing it', async () => {
    const dataDir = path.join(tempDir(), 'data');

    fake.enqueue(text('default'));
    const first = await run(entry('cli'), ['--data-dir', dataDir, 'hi'], env());
    expect(first.code).toBe(0);
    expect(lastModel()).toBe(defaultSettings.model);

    // The app saved another model in its settings file.
    mkdirSync(dataDir, { recursive: true });
    const config = path.join(dataDir, 'config.json');
    writeFileSync(config, JSON.stringify({ model: 'claude-haiku-4-5' }));
    fake.enqueue(text('stored'));
    expect((await run(entry('cli'), ['--data-dir', dataDir, 'hi'], env())).code).toBe(0);
    expect(lastModel()).toBe('claude-haiku-4-5');

    fake.enqueue(text('flag'));
    const flagged = await run(
      entry('cli'),
      ['--data-dir', dataDir, '--model', 'claude-opus-4-7', 'hi'],
      env(),
    );
    expect(flagged.code).toBe(0);
    expect(flagged.stdout).toContain('Final answer:');
    expect(lastModel()).toBe('claude-opus-4-7');
    expect(JSON.parse(readFileSync(config, 'utf8'))).toMatchObject({ model: 'claude-haiku-4-5' });
  });

  it('refuses an empty --model with the usage and exit code 2, before any request', async () => {
    const result = await run(
      entry('cli'),
      ['--data-dir', path.join(tempDir(), 'data'), '--model', ' ', 'hi'],
      env(),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--model needs a model name.');
    expect(fake.requests).toHaveLength(0);
  });
});

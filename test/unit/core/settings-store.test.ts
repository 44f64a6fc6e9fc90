import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Conf from 'conf';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/channels/settings.js';
import { createFileKeyVault, type KeyCipher, UNREADABLE_KEYCHAIN } from '../../../electron/core/key-vault.js';
import { createFileLogger } from '../../../electron/core/log.js';
import { createSettingsStore } from '../../../electron/core/settings-store.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'mnemo-set-'));
const store = (dataDir: string, env: NodeJS.ProcessEnv = {}) =>
  createSettingsStore({ dataDir, env, log: createFileLogger({ dataDir }) });
const logText = (dataDir: string) => readFileSync(path.join(dataDir, 'logs', 'mnemo.log'), 'utf8');

describe('settings store', () => {
  it('starts from the defaults and persists changes to DATA_DIR/config.json', () => {
    const dataDir = tmp();
    const s = store(dataDir);
    expect(s.get()).toEqual(defaultSettings);
    expect(s.path).toBe(path.join(dataDir, 'config.json'));
    s.set({ model: 'claude-opus-4-7', maxTurns: 10 });
    expect(store(dataDir).get()).toMatchObject({ model: 'claude-opus-4-7', maxTurns: 10 });
    expect(JSON.parse(readFileSync(s.path, 'utf8'))).toEqual({ model: 'claude-opus-4-7', maxTurns: 10 });
  });

  it('refuses out-of-range and unknown keys with a clear message, storing nothing', () => {
    const dataDir = tmp();
    const s = store(dataDir);
    expect(() => s.set({ maxTurns: 0 })).toThrow(/maxTurns/);
    expect(() => s.set({ baseUrl: 'http://evil' } as never)).toThrow(/Invalid setting/);
    expect(s.get()).toEqual(defaultSettings);
  });

  it('falls back to the default for an invalid stored value, with a log line, keeping the valid ones', () => {
    const dataDir = tmp();
    writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ maxTurns: -5, theme: 'dark' }));
    const s = store(dataDir);
    expect(s.get()).toMatchObject({ maxTurns: defaultSettings.maxTurns, theme: 'dark' });
    expect(logText(dataDir)).toContain('invalid stored setting \\"maxTurns\\"');
  });

  it('sets a corrupt config file aside instead of crashing', () => {
    const dataDir = tmp();
    writeFileSync(path.join(dataDir, 'config.json'), '{ not json');
    const s = store(dataDir);
    expect(s.get()).toEqual(defaultSettings);
    const aside = readdirSync(dataDir).filter((f) => f.startsWith('config.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(dataDir, aside[0]!), 'utf8')).toBe('{ not json');
  });

  it('sets a corrupt file aside before a store factory (Electron: electron-store) reads it', () => {
    const dataDir = tmp();
    writeFileSync(path.join(dataDir, 'config.json'), '[1, 2');
    const s = createSettingsStore({
      dataDir,
      env: {},
      log: createFileLogger({ dataDir }),
      // Conf's constructor throws on malformed JSON, as electron-store's does.
      conf: () => new Conf<Record<string, unknown>>({ cwd: dataDir, configName: 'config' }),
    });
    expect(s.get()).toEqual(defaultSettings);
    s.set({ theme: 'dark' });
    expect(JSON.parse(readFileSync(path.join(dataDir, 'config.json'), 'utf8'))).toEqual({ theme: 'dark' });
  });

  it('preserves keys it does not own (e.g. the shell window bounds) and reset keeps them', () => {
    const dataDir = tmp();
    writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ windowState: { width: 900 } }));
    const s = store(dataDir);
    s.set({ theme: 'light' });
    s.reset();
    expect(JSON.parse(readFileSync(s.path, 'utf8'))).toEqual({ windowState: { width: 900 } });
    expect(s.get()).toEqual(defaultSettings);
  });
});

describe('API key', () => {
  it('is stored in a 0600 file, never in config.json', () => {
    const dataDir = tmp();
    const s = store(dataDir);
    expect(s.apiKeyStatus()).toEqual({ hasApiKey: false, source: 'none', insecureStorage: true });
    s.setApiKey('sk-ant-stored-key-1');
    expect(s.apiKey()).toBe('sk-ant-stored-key-1');
    expect(s.apiKeyStatus()).toEqual({ hasApiKey: true, source: 'stored', insecureStorage: true });
    const file = path.join(dataDir, 'api-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(s.path) ? readFileSync(s.path, 'utf8') : '').not.toContain('sk-ant-stored-key-1');
    s.setApiKey(null);
    expect(existsSync(file)).toBe(false);
    expect(s.apiKey()).toBeUndefined();
  });

  it('ANTHROPIC_API_KEY wins over a stored key', () => {
    const dataDir = tmp();
    store(dataDir).setApiKey('sk-ant-stored');
    const s = store(dataDir, { ANTHROPIC_API_KEY: 'sk-ant-from-env' });
    expect(s.apiKey()).toBe('sk-ant-from-env');
    expect(s.apiKeyStatus()).toEqual({ hasApiKey: true, source: 'env', insecureStorage: false });
  });

  it('uses a pluggable cipher, and a face with another cipher does not misread the file', () => {
    const dataDir = tmp();
    const rot13: KeyCipher = {
      scheme: 'test-rot',
      secure: true,
      encrypt: (p) => Buffer.from([...Buffer.from(p)].map((b) => b ^ 0x5a)),
      decrypt: (d) => Buffer.from([...d].map((b) => b ^ 0x5a)).toString(),
    };
    const log = createFileLogger({ dataDir });
    const secure = createSettingsStore({
      dataDir,
      env: {},
      log,
      vault: createFileKeyVault({ dataDir, cipher: rot13 }),
    });
    secure.setApiKey('sk-ant-encrypted');
    expect(readFileSync(path.join(dataDir, 'api-key'), 'utf8')).not.toContain('sk-ant-encrypted');
    expect(secure.apiKeyStatus()).toEqual({ hasApiKey: true, source: 'stored', insecureStorage: false });
    expect(secure.apiKey()).toBe('sk-ant-encrypted');
    const plain = store(dataDir);
    expect(plain.apiKey()).toBeUndefined();
    expect(logText(dataDir)).toContain('test-rot protection');
  });
});

// Issue 11, item 1: a stored key this face cannot read (saved by the desktop app's safeStorage, or a
// damaged file) is read once and reported once; logging never reads the key file again.
describe('an unreadable stored key', () => {
  const cases = [
    {
      name: 'saved by the desktop app (safeStorage)',
      file: JSON.stringify({ v: 1, scheme: 'safeStorage', data: Buffer.from('opaque').toString('base64') }),
      problem: UNREADABLE_KEYCHAIN,
    },
    { name: 'corrupt', file: '{"v":1,"sch', problem: /damaged/ },
    { name: 'not JSON at all', file: '\u0000\u0001garbage', problem: /damaged/ },
    {
      name: 'a hostile scheme name',
      file: JSON.stringify({ v: 1, scheme: '/etc/x\n', data: '' }),
      problem: /another protection/,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: no key, the problem in the status, one log line however much is logged`, () => {
      const dataDir = tmp();
      writeFileSync(path.join(dataDir, 'api-key'), c.file, { mode: 0o600 });
      const log = createFileLogger({ dataDir, secrets: () => [] });
      const s = createSettingsStore({ dataDir, env: {}, log });
      for (let i = 0; i < 20; i++) log.info('some line', { i });
      expect(s.apiKey()).toBeUndefined();
      const status = s.apiKeyStatus();
      expect(status).toMatchObject({ hasApiKey: false, source: 'none' });
      if (typeof c.problem === 'string') expect(status.problem).toBe(c.problem);
      else expect(status.problem).toMatch(c.problem);
      const lines = logText(dataDir).trim().split('\n');
      expect(lines.filter((l) => l.includes('API key not loaded'))).toHaveLength(1);
      expect(lines).toHaveLength(21);
    });
  }

  it('a key saved afterwards replaces the problem', () => {
    const dataDir = tmp();
    writeFileSync(path.join(dataDir, 'api-key'), '{"v":1,"sch');
    const s = store(dataDir);
    expect(s.apiKeyStatus().problem).toMatch(/damaged/);
    s.setApiKey('sk-ant-fresh');
    expect(s.apiKey()).toBe('sk-ant-fresh');
    expect(s.apiKeyStatus()).toEqual({ hasApiKey: true, source: 'stored', insecureStorage: true });
  });
});

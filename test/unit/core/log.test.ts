import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLogger } from '../../../electron/core/log.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'mnemo-log-'));

describe('file logger', () => {
  it('writes JSON lines to DATA_DIR/logs/mnemo.log, owner-only', () => {
    const dataDir = tmp();
    const log = createFileLogger({ dataDir });
    log.info('hello', { n: 1 });
    log.warn('careful');
    const file = path.join(dataDir, 'logs', 'mnemo.log');
    expect(log.file).toBe(file);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['info', 'hello'],
      ['warn', 'careful'],
    ]);
    expect(lines[0]!.n).toBe(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('rotates past maxBytes and keeps only `keep` old files', () => {
    const dataDir = tmp();
    const log = createFileLogger({ dataDir, maxBytes: 300, keep: 2 });
    for (let i = 0; i < 40; i++) log.info(`line ${i}`, { pad: 'x'.repeat(50) });
    const file = path.join(dataDir, 'logs', 'mnemo.log');
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    for (const f of [file, `${file}.1`, `${file}.2`]) expect(statSync(f).size).toBeLessThanOrEqual(300);
    expect(readFileSync(file, 'utf8')).toContain('line 39');
  });

  it('never writes the configured key, key-shaped strings or memory contents', () => {
    const dataDir = tmp();
    const key = 'my-configured-key-0123456789';
    const log = createFileLogger({ dataDir, secrets: () => [key, undefined] });
    log.error(`request failed with ${key}`, {
      header: 'Bearer sk-ant-abc123',
      tool: { name: 'memory', input: { command: 'create', file_text: 'I am allergic to peanuts' } },
    });
    const text = readFileSync(log.file, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain('sk-ant-abc123');
    expect(text).not.toContain('peanuts');
    expect(text).toContain('request failed with [redacted]');
  });
});

// `npm run web`: the URL form, a free port when none is given, the data dir from --data-dir or
// MNEMO_DATA_DIR, usage + exit 2 on bad flags, a graceful stop on SIGTERM and SIGINT.
import { createServer } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entry, READY_URL, run, start, tempDir } from './processes.js';

describe('npm run web', () => {
  it('prints http://127.0.0.1:PORT/?token=... on a free port and serves the app there', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const [a, b] = await Promise.all([
      start(entry('web-main'), ['--data-dir', dataDir], {}, READY_URL),
      start(entry('web-main'), ['--data-dir', `${dataDir}-2`], {}, READY_URL),
    ]);
    try {
      expect(a.match[2]).not.toBe(b.match[2]);
      expect(Number(a.match[2])).toBeGreaterThan(0);
      const page = await fetch(a.match[1]!);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await page.text()).toContain('<div id="root">');
      expect(a.output()).toContain(`Data folder: ${dataDir}`);
    } finally {
      expect(await a.stop('SIGINT')).toBe(0);
      expect(await b.stop('SIGTERM')).toBe(0);
    }
    expect(a.output()).toContain('Stopping Mnemo');
    expect(readFileSync(path.join(dataDir, 'logs', 'mnemo.log'), 'utf8')).toContain('core closed');
  });

  it('honours MNEMO_DATA_DIR, and --data-dir wins over it', async () => {
    const fromEnv = path.join(tempDir(), 'env-data');
    const fromFlag = path.join(tempDir(), 'flag-data');
    const envOnly = await start(entry('web-main'), [], { MNEMO_DATA_DIR: fromEnv }, READY_URL);
    await envOnly.stop();
    expect(envOnly.output()).toContain(`Data folder: ${fromEnv}`);
    expect(existsSync(path.join(fromEnv, 'logs', 'mnemo.log'))).toBe(true);

    const both = await start(
      entry('web-main'),
      ['--data-dir', fromFlag],
      { MNEMO_DATA_DIR: `${fromEnv}-x` },
      READY_URL,
    );
    await both.stop();
    expect(both.output()).toContain(`Data folder: ${fromFlag}`);
    expect(existsSync(`${fromEnv}-x`)).toBe(false);
  });

  it('listens on the --port it was given, and names a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const busy = await run(entry('web-main'), ['--data-dir', tempDir(), '--port', String(port)], {});
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`Port ${port} is already in use`);
      expect(busy.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
    const free = await start(
      entry('web-main'),
      ['--data-dir', tempDir(), '--port', String(port)],
      {},
      READY_URL,
    );
    await free.stop();
    expect(free.match[2]).toBe(String(port));
  });

  it.each([
    [['--port', 'eighty']],
    [['--port', '70000']],
    [['--bogus']],
    [['stray-argument']],
    [['--data-dir']],
  ])('refuses %j with the usage and exit code 2', async (args) => {
    const result = await run(entry('web-main'), args, {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: npm run web --');
    expect(result.stdout).toBe('');
  });
});

// The `mnemo` bin (package.json "bin" → dist/electron/cli.js), run the way npm links it: the file itself,
// executed through its shebang, not `node file`. Needs `npm run build` (npm test builds first).
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv, ROOT, tempDir } from './processes.js';

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  productName: string;
  bin: Record<string, string>;
};
const binFile = path.join(ROOT, pkg.bin.mnemo ?? 'missing');

function exec(file: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(file, args, { cwd: tempDir(), env: childEnv(env), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the mnemo bin', () => {
  it('points at the compiled CLI, which starts with a node shebang and is executable', () => {
    expect([pkg.name, pkg.productName]).toEqual(['mnemo', 'Mnemo']);
    expect(pkg.bin.mnemo).toBe('dist/electron/cli.js');
    expect(readFileSync(binFile, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(() => accessSync(binFile, constants.X_OK)).not.toThrow();
  });

  it('runs by itself: usage on --help, and exit code 3 with what to set when there is no key', async () => {
    // The shebang finds `node` on PATH, as it would for a user; make sure it is this one.
    const PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
    const help = await exec(binFile, ['--help'], { PATH });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: /);

    const dataDir = path.join(tempDir(), 'data');
    const noKey = await exec(binFile, ['--data-dir', dataDir, 'hello'], { PATH, ANTHROPIC_API_KEY: '' });
    expect(noKey.code).toBe(3);
    expect(noKey.stderr).toContain('ANTHROPIC_API_KEY');
    expect(noKey.stderr).not.toMatch(/\n\s+at /);
  });
});

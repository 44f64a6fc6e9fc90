// The entries of the plain-Node faces (dist/electron/cli.js, web-main.js, launch.js), as built: on a Node
// older than 24 each says so in exactly one line and exits 1, having loaded nothing of the app; each parses
// as ES2022 (what Node 18 understands), so an old Node gets that far; one whose rest cannot be loaded says
// so in one line, without a path or a stack trace.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import { NODE_MAJOR } from '../../../electron/node-check.js';
import { fakeNodeVersion, recordLoads, runNode } from './load-recorder.js';
import { entry, ROOT, tempDir } from './processes.js';

/** Each entry → the chunk with the rest of its face (electron/<face>.ts imports <rest>.ts). */
const REST = { cli: 'cli-run', 'web-main': 'web-run', launch: 'launch-run' } as const;
const FACES = Object.keys(REST) as (keyof typeof REST)[];

describe('the faces on an older Node', () => {
  it('needs the Node that package.json names', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(`>=${NODE_MAJOR}`);
  });

  for (const face of FACES) {
    it(`${face}.js: one line naming the Node needed, exit 1, nothing of the app loaded`, async () => {
      const loads = recordLoads();
      const result = await runNode([...fakeNodeVersion('20.19.0'), ...loads.flags], entry(face), ['--help']);
      expect(result.stderr).toBe('Mnemo needs Node.js 24 or later; this is Node.js 20.19.0.\n');
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
      expect(loads.loaded()).toEqual([pathToFileURL(entry(face)).href]);
    });
  }

  it('lets Node 24 through: the same entry prints the usage', async () => {
    const result = await runNode(fakeNodeVersion('24.0.0'), entry('cli'), ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage:');
    expect(result.stderr).toBe('');
  });
});

describe('the entries as files', () => {
  const es2022 = (code: string) =>
    parse(code, { ecmaVersion: 2022, sourceType: 'module', allowHashBang: true });

  it('parse as ES2022 and import only Node built-ins and their own chunk', () => {
    for (const face of FACES) {
      const code = readFileSync(entry(face), 'utf8');
      expect(() => es2022(code), `${face}.js`).not.toThrow();
      const imports = [...code.matchAll(/\bimport\s*(?:[\w*{}\s,]+from\s*)?\(?\s*["']([^"']+)["']/g)].map(
        (m) => m[1],
      );
      expect(
        imports.filter((i) => !i!.startsWith('node:')),
        `${face}.js`,
      ).toEqual([`./chunks/${face}/${REST[face]}.js`]);
    }
  });

  it('(the check itself: newer syntax does not parse as ES2022)', () => {
    expect(() => es2022('const r = /[\\p{L}--[a-z]]/v;')).toThrow();
    expect(() => es2022('using handle = open();')).toThrow();
  });
});

describe('a face whose files are damaged', () => {
  it('says so in one line, with what to do, no path and no stack trace', async () => {
    const copy = path.join(tempDir('mnemo-damaged-'), 'Mnemo Tést');
    cpSync(path.join(ROOT, 'dist/electron'), path.join(copy, 'dist/electron'), { recursive: true });
    cpSync(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'));
    rmSync(path.join(copy, 'dist/electron/chunks/cli/cli-run.js'));
    const result = await runNode([], path.join(copy, 'dist/electron/cli.js'), ['--help']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/could not load its own files.*npm install/);
    expect(result.stderr).not.toContain(copy);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

// .ci/build-if-stale.js, what `npm run chat|web` and `npm start` run first, in a temp project whose
// build scripts are stand-ins that write the outputs and log each build (the real builds take a minute
// of CPU and are exercised by `npm run build`): real npm, real files, real modification times.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeNodeVersion } from './load-recorder.js';
import { childEnv, ROOT, tempDir } from './processes.js';

const SCRIPT = path.join(ROOT, '.ci/build-if-stale.js');
const NODE_OUTPUTS = ['cli.js', 'web-main.js', 'launch.js', 'main.js', 'preload.cjs'].map(
  (f) => `dist/electron/${f}`,
);
const CHUNKS = ['cli', 'web-main', 'launch'].map((f) => `dist/electron/chunks/${f}`);
const WEB_OUTPUT = 'dist/renderer/index.html';
const SOURCES = [
  'electron/cli.ts',
  'memory/store.ts',
  'shared/contract.ts',
  'renderer/app.tsx',
  'electron',
  'memory',
  'shared',
  'renderer',
  'package.json',
];

// The stand-in build: writes what the real one writes, prints on stdout as tsc and vite may, logs the part.
const BUILD = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
const part = process.argv[2];
if (process.env.FAIL_BUILD === part) process.exit(7);
const files = part === 'node' ? ${JSON.stringify(NODE_OUTPUTS)} : [${JSON.stringify(WEB_OUTPUT)}];
for (const dir of part === 'node' ? ${JSON.stringify(CHUNKS)} : []) mkdirSync(dir, { recursive: true });
for (const file of files) {
  mkdirSync(file.slice(0, file.lastIndexOf('/')), { recursive: true });
  writeFileSync(file, '');
}
console.log('built ' + part);
appendFileSync('builds.log', part + '\\n');
`;

function project(): string {
  const root = tempDir('mnemo-stale-');
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({
      name: 'stale-check',
      engines: { node: '>=24' },
      scripts: { 'build:node': 'node build.mjs node', 'build:web': 'node build.mjs web' },
    }),
  );
  writeFileSync(path.join(root, 'build.mjs'), BUILD);
  for (const file of SOURCES.filter((f) => f.includes('/'))) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), '');
  }
  // Every source a minute old: the builds below are newer than all of them.
  for (const file of SOURCES) setAge(root, file, 60);
  return root;
}

function setAge(root: string, file: string, secondsAgo: number): void {
  const time = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path.join(root, file), time, time);
}

function check(root: string, parts: string[], flags: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [...flags, SCRIPT, ...parts], {
    cwd: root,
    env: childEnv(env),
    encoding: 'utf8',
  });
  let builds: string[] = [];
  try {
    builds = readFileSync(path.join(root, 'builds.log'), 'utf8').trim().split('\n').filter(Boolean);
    rmSync(path.join(root, 'builds.log'));
  } catch {
    // Nothing was built.
  }
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, builds };
}

describe('build-if-stale', () => {
  it('builds each missing part once, says why on stderr, then builds nothing', () => {
    const root = project();
    const first = check(root, ['node', 'web']);
    expect(first.code).toBe(0);
    expect(first.builds).toEqual(['node', 'web']);
    expect(first.stderr).toContain('Building the Node side (dist/electron/cli.js is missing)...');
    expect(first.stderr).toContain('Building the interface (dist/renderer/index.html is missing)...');
    // The face's stdout is its own: the build's output went to stderr.
    expect(first.stdout).toBe('');
    expect(first.stderr).toContain('built node');

    const again = check(root, ['node', 'web']);
    expect(again).toMatchObject({ code: 0, builds: [], stdout: '', stderr: '' });
  });

  it('builds again the part a newer source belongs to, and names the source', () => {
    const root = project();
    check(root, ['node', 'web']);
    // Each step: every source a minute old, the last builds 30 s ago, then one source edited 10 s ago.
    const edit = (source: string, parts: string[]) => {
      for (const file of SOURCES) setAge(root, file, 60);
      for (const output of [...NODE_OUTPUTS, ...CHUNKS, WEB_OUTPUT]) setAge(root, output, 30);
      setAge(root, source, 10);
      return check(root, parts);
    };
    const edited = edit('electron/cli.ts', ['node', 'web']);
    expect(edited.builds).toEqual(['node']);
    expect(edited.stderr).toContain('(electron/cli.ts changed since the last build)');
    expect(edit('renderer/app.tsx', ['node', 'web']).builds).toEqual(['web']);
    expect(edit('renderer/app.tsx', ['node']).builds).toEqual([]);
    expect(edit('shared/contract.ts', ['node', 'web']).builds).toEqual(['node', 'web']);
  });

  it('builds again when a source file was removed (its folder changed)', () => {
    const root = project();
    check(root, ['node']);
    for (const output of [...NODE_OUTPUTS, ...CHUNKS]) setAge(root, output, 30);
    rmSync(path.join(root, 'memory/store.ts'));
    const result = check(root, ['node']);
    expect(result.builds).toEqual(['node']);
    expect(result.stderr).toContain('(memory changed since the last build)');
  });

  it('does not go by the time of a file only tsc writes when its own source changes (main.js)', () => {
    const root = project();
    check(root, ['node']);
    setAge(root, 'dist/electron/main.js', 120);
    expect(check(root, ['node']).builds).toEqual([]);
    rmSync(path.join(root, 'dist/electron/main.js'));
    const missing = check(root, ['node']);
    expect(missing.builds).toEqual(['node']);
    expect(missing.stderr).toContain('(dist/electron/main.js is missing)');
  });

  it('a missing chunk folder counts as missing, whatever the entries say', () => {
    const root = project();
    check(root, ['node']);
    rmSync(path.join(root, 'dist/electron/chunks/web-main'), { recursive: true });
    expect(check(root, ['node']).builds).toEqual(['node']);
  });

  it('a failed build: its exit code, one line saying so, and the face is not started', () => {
    const root = project();
    const result = check(root, ['node', 'web'], [], { FAIL_BUILD: 'node' });
    expect(result.code).not.toBe(0);
    expect(result.builds).toEqual([]);
    expect(result.stderr).toContain('Building the Node side failed (see above)');
  });

  it('on an older Node builds nothing and prints nothing: the entry says what is needed', () => {
    const root = project();
    const result = check(root, ['node', 'web'], fakeNodeVersion('20.19.0'));
    expect(result).toMatchObject({ code: 0, builds: [], stdout: '', stderr: '' });
  });

  it('refuses an unknown part', () => {
    const result = check(project(), ['nod']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown part nod');
  });
});

// Doyensec's Electronegativity over the compiled main-process JavaScript and the built index.html.
// It bundles an old TypeScript parser, so it reads dist/ (the build of `npm test`), not the sources.
// AVAILABLE_SECURITY_FIXES is excluded: it needs the network.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const electronVersion = JSON.parse(
  fs.readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8'),
).version as string;

interface Finding {
  id: string;
  severity: string;
  confidence: string;
  file: string;
  line: number;
  description: string;
}

/**
 * Its runner, called in a child process (it registers globals and loads its own parser), printing the
 * issues as JSON. Not the CLI: the CLI writes its CSV report with two unawaited writes (the header, then
 * the rows appended), which race, so under load the report sometimes held only part of the findings.
 */
const SCAN = `
// Offline by design: the tool first downloads its translations through got, which with no network
// sometimes threw from inside ("The onCancel handler was attached after the promise settled") when the
// lookup failed soon after the request started, as on a loaded machine, and the scan ended. Its HTTP
// client here answers every request as a network that is down, so the tool takes its offline path.
const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request !== 'got') return load.call(this, request, ...rest);
  const offline = () => Promise.reject(new Error('no network in tests'));
  offline.head = offline;
  return offline;
};
const run = require(process.argv[1]);
run({
  input: process.argv[2],
  electronVersionOverride: process.argv[3],
  excludeFromScan: ['availablesecurityfixesglobalcheck'],
  customScan: [],
  parserPlugins: [],
}, false).then((result) => {
  const issues = result.issues.map((i) => ({
    id: i.id,
    severity: i.severity.name,
    confidence: i.confidence.name,
    file: i.file,
    line: i.location.line,
    description: i.description,
  }));
  process.stdout.write(JSON.stringify({ issues, errors: result.errors }));
});
`;

let findings: Finding[] = [];
let scanned = '';
/** The files the tool could not parse: they explain a scan that found less than it should. */
let parseErrors = '';

beforeAll(async () => {
  scanned = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-eneg-'));
  // Not dist/electron/chunks: the terminal and browser faces bundled with their dependencies, which never
  // run in Electron; tsc's output of every source file, theirs included, is beside them and scanned.
  const chunks = path.join(root, 'dist/electron/chunks');
  fs.cpSync(path.join(root, 'dist/electron'), path.join(scanned, 'electron'), {
    recursive: true,
    filter: (src) => src !== chunks && (fs.statSync(src).isDirectory() || /\.(c?js)$/.test(src)),
  });
  fs.copyFileSync(path.join(root, 'dist/renderer/index.html'), path.join(scanned, 'index.html'));
  fs.writeFileSync(
    path.join(scanned, 'package.json'),
    JSON.stringify({ name: 'mnemo', devDependencies: { electron: electronVersion } }),
  );
  const run = await promisify(execFile)(
    process.execPath,
    ['-e', SCAN, path.join(root, 'node_modules/@doyensec/electronegativity'), scanned, electronVersion],
    { cwd: scanned, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const result = JSON.parse(run.stdout.slice(run.stdout.indexOf('{"issues"'))) as {
    issues: Finding[];
    errors: { file: string; message: string }[];
  };
  findings = result.issues.map((f) => ({ ...f, file: path.relative(scanned, f.file) }));
  parseErrors = JSON.stringify(result.errors);
}, 150_000);

describe('Electronegativity', () => {
  it('scanned the main process and found its BrowserWindow', () => {
    expect(fs.existsSync(path.join(scanned, 'electron/main.js')), 'dist/electron/main.js was copied').toBe(
      true,
    );
    expect(
      findings.map((f) => f.id),
      `the report holds the Electron version check (the scan ran over the project); parse errors: ${parseErrors}`,
    ).toContain('ELECTRON_VERSION_JSON_CHECK');
  });

  it('reports nothing of high severity', () => {
    expect(findings.filter((f) => f.severity === 'HIGH')).toEqual([]);
  });

  it('reports nothing of medium severity with certain confidence', () => {
    expect(findings.filter((f) => f.severity === 'MEDIUM' && f.confidence === 'CERTAIN')).toEqual([]);
  });

  it('answers each "review the use of" advisory with a comment at the code it points to', () => {
    const advisories = findings.filter((f) => /^Review the use of/i.test(f.description));
    for (const f of advisories) {
      const lines = fs.readFileSync(path.join(scanned, f.file), 'utf8').split('\n');
      const around = lines.slice(Math.max(0, f.line - 4), f.line).join('\n');
      expect(around, `${f.id} at ${f.file}:${f.line}`).toMatch(/Reviewed use of/);
    }
  });
});

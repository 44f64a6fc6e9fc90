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

/** RFC 4180: quoted fields may hold commas, doubled quotes and newlines (code samples do). */
function parseCsvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell.trim());
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      endCell();
    } else if (!quoted && c === '\n') {
      endCell();
      rows.push(row);
      row = [];
    } else {
      cell += c;
    }
  }
  if (cell.trim() !== '' || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}

function parseCsv(text: string): Finding[] {
  return parseCsvRows(text)
    .slice(1)
    .map(([id, severity, confidence, file, location, , description]) => ({
      id: id!,
      severity: severity!,
      confidence: confidence!,
      file: file!,
      line: Number(location!.split(':')[0]),
      description: description!,
    }));
}

let findings: Finding[] = [];
let scanned = '';

beforeAll(async () => {
  scanned = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-eneg-'));
  fs.cpSync(path.join(root, 'dist/electron'), path.join(scanned, 'electron'), {
    recursive: true,
    filter: (src) => fs.statSync(src).isDirectory() || /\.(c?js)$/.test(src),
  });
  fs.copyFileSync(path.join(root, 'dist/renderer/index.html'), path.join(scanned, 'index.html'));
  fs.writeFileSync(
    path.join(scanned, 'package.json'),
    JSON.stringify({ name: 'mnemo', devDependencies: { electron: electronVersion } }),
  );
  const out = path.join(scanned, 'report.csv');
  await promisify(execFile)(
    path.join(root, 'node_modules/.bin/electronegativity'),
    [
      '-i',
      scanned,
      '-x',
      'AvailableSecurityFixesGlobalCheck',
      '-e',
      electronVersion,
      '-r',
      '-v',
      'false',
      '-o',
      out,
    ],
    { cwd: scanned, timeout: 120_000 },
  );
  findings = parseCsv(fs.readFileSync(out, 'utf8'));
}, 150_000);

describe('Electronegativity', () => {
  it('scanned the main process and found its BrowserWindow', () => {
    expect(fs.existsSync(path.join(scanned, 'electron/main.js')), 'dist/electron/main.js was copied').toBe(
      true,
    );
    expect(
      findings.map((f) => f.id),
      'the report holds the Electron version check (the scan ran over the project)',
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

// The lint rule against import cycles (.dependency-cruiser.cjs, run by `npm run lint`) fails on a cycle
// planted in a temp folder, also one made only of `import type` edges, and passes once it is broken.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(repo, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function cruise(files: Record<string, string>): Promise<{ code: number; out: string }> {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mnemo-cycle-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  try {
    const { stdout } = await run(
      process.execPath,
      [cli, '--config', path.join(repo, '.dependency-cruiser.cjs'), '--output-type', 'err', dir],
      { cwd: repo },
    );
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: e.code ?? -1, out: e.stdout ?? '' };
  }
}

describe('no import cycles (npm run lint)', () => {
  it.each([
    ['value imports', "import { b } from './b.js';\nexport const a = () => b;\n"],
    ['type-only imports', "import type { B } from './b.js';\nexport interface A { b?: B }\n"],
  ])('fails on a cycle of %s', async (_name, aText) => {
    const r = await cruise({
      'a.ts': aText,
      'b.ts': "import type { A } from './a.js';\nexport type B = A[];\nexport const b = 1;\n",
    });
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('no-cycle');
    expect(r.out).toMatch(/a\.ts/);
  });

  it('passes when the cycle is broken by a file both import', async () => {
    const r = await cruise({
      'types.ts': 'export interface A { n: number }\nexport type B = A[];\n',
      'a.ts': "import type { B } from './types.js';\nexport const a = (b: B) => b.length;\n",
      'b.ts':
        "import type { A } from './types.js';\nimport { a } from './a.js';\nexport const b = (x: A) => a([x]);\n",
    });
    expect(r.out).not.toContain('no-cycle');
    expect(r.code).toBe(0);
  });
});

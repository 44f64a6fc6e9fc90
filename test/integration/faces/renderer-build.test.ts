// `npm start` and `npm run web` build what is missing (issue 2, point 3): browser mode builds the
// interface with Vite when dist/renderer has no index.html, says so in one line, and leaves a built one
// alone. Vite is a stand-in script at node_modules/vite/bin/vite.js of a temp project folder (the real
// build costs a minute of CPU and is exercised by `npm run build`); our code around it is the real one.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureRendererBuilt, rendererDir } from '../../../electron/browser-mode.js';
import { tempDir } from './processes.js';

function project(vite?: string): string {
  const root = tempDir('mnemo-build-');
  if (vite !== undefined) {
    mkdirSync(path.join(root, 'node_modules', 'vite', 'bin'), { recursive: true });
    writeFileSync(path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), vite);
  }
  return root;
}

const buildingVite = `
const fs = require('node:fs');
if (process.argv[2] !== 'build') process.exit(5);
fs.mkdirSync('dist/renderer', { recursive: true });
fs.writeFileSync('dist/renderer/index.html', '<div id="root"></div>');
`;

describe('the interface build', () => {
  it('builds a missing interface once, with one line saying so', async () => {
    const root = project(buildingVite);
    const lines: string[] = [];
    expect(await ensureRendererBuilt((l) => lines.push(l), root)).toBe(rendererDir(root));
    expect(lines).toEqual(['Building the interface (first run only)...']);
    // Built now: nothing to do, nothing said.
    expect(await ensureRendererBuilt((l) => lines.push(l), root)).toBe(rendererDir(root));
    expect(lines).toHaveLength(1);
  });

  it('says what to run when the build fails or Vite is not installed, without a stack', async () => {
    const failing = project('process.exit(1);');
    await expect(ensureRendererBuilt(() => undefined, failing)).rejects.toThrow(
      /^Building the interface failed \(see the messages above\)\. Try `npm run build:web`\.$/,
    );
    await expect(ensureRendererBuilt(() => undefined, project())).rejects.toThrow(/Run `npm install`/);
  });
});

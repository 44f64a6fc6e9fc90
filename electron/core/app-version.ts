// The app's version from package.json, found by walking up from this module: the same code runs from
// source (electron/core/) under vitest and compiled (dist/electron/core/), at different depths.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function appVersion(): string {
  if (cached !== undefined) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'mnemo' && typeof pkg.version === 'string') return (cached = pkg.version);
    } catch {
      // Not here: keep walking up.
    }
    dir = path.dirname(dir);
  }
  return (cached = '0.0.0');
}

/** The project root (where package.json is), for the launchers that build or serve dist/. */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'mnemo') return dir;
    } catch {
      // keep walking
    }
    dir = path.dirname(dir);
  }
  return process.cwd();
}

// Where Mnemo keeps its data. The default is the folder Electron gives this app as `userData`
// (appData + product name), computed here without Electron so the desktop app, browser mode and the CLI
// share one memory. Precedence: --data-dir, then MNEMO_DATA_DIR, then the platform default.
import { chmodSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export const PRODUCT_NAME = 'Mnemo';

export interface DataDirInputs {
  /** The value of a --data-dir flag, if given. */
  flag?: string | undefined;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
  cwd?: string;
}

/** Electron's `app.getPath('appData')` for a platform, without Electron. */
export function appDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') {
    return env.APPDATA && env.APPDATA.length > 0 ? env.APPDATA : path.win32.join(home, 'AppData', 'Roaming');
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support');
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored (Electron does the same).
  return xdg && path.isAbsolute(xdg) ? xdg : path.posix.join(home, '.config');
}

/** The default data dir: Electron's userData for product name "Mnemo". */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  return join(appDataDir(platform, env, home), PRODUCT_NAME);
}

/** Resolves the data dir (absolute) from the flag, the environment and the platform default. */
export function resolveDataDir(inputs: DataDirInputs = {}): string {
  const env = inputs.env ?? process.env;
  // npm runs scripts in the package folder and keeps the user's own folder in INIT_CWD: a relative
  // `npm run web -- --data-dir ./data` means the folder the user typed it in.
  const cwd = inputs.cwd ?? nonEmpty(env.INIT_CWD) ?? process.cwd();
  const chosen = nonEmpty(inputs.flag) ?? nonEmpty(env.MNEMO_DATA_DIR);
  if (chosen !== undefined) return path.resolve(cwd, expandHome(chosen, inputs.home ?? homedir()));
  return defaultDataDir(inputs.platform ?? process.platform, env, inputs.home ?? homedir());
}

/**
 * Creates the data dir if missing, owner-only (0700): it holds the user's memory and maybe an API key.
 * Throws a message without a stack-worthy cause when the path exists but is not a folder. An existing
 * folder is tightened by tightenDataDir (createCore), where the change can be logged.
 */
export function ensureDataDir(dir: string): string {
  let existing: ReturnType<typeof statSync> | undefined;
  try {
    existing = statSync(dir);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isDirectory()) {
    throw new Error(`The data folder ${dir} exists but is not a folder. Choose another with --data-dir.`);
  }
  if (!existing) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode is filtered by the umask; make sure the leaf is owner-only whatever the umask is.
    if (process.platform !== 'win32') chmodSync(dir, 0o700);
  }
  return dir;
}

/**
 * Makes the data folder, and its sync folder (git folders and tokens), owner-only where another user
 * could enter them: a folder made by an older version, a copy or a restore may be 0755, and everything
 * under it (memory, conversations, a plain-text API key or token) would then be readable by others.
 * Only these two folders: what is inside is made owner-only by whoever writes it. Returns what it
 * changed, as names relative to the data folder with their former modes, for the log.
 */
export function tightenDataDir(dir: string): { folder: string; was: string }[] {
  if (process.platform === 'win32') return [];
  const changed: { folder: string; was: string }[] = [];
  for (const folder of ['.', 'sync']) {
    const full = path.join(dir, folder);
    try {
      const st = lstatSync(full);
      if (!st.isDirectory() || (st.mode & 0o077) === 0) continue;
      chmodSync(full, st.mode & 0o700);
      changed.push({ folder, was: (st.mode & 0o777).toString(8) });
    } catch {
      // Missing, or not ours to change: the start goes on, as before.
    }
  }
  return changed;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim().length > 0 ? value : undefined;
}

function expandHome(p: string, home: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p;
}

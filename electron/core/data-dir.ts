// Where Mnemo keeps its data. The default is the folder Electron gives this app as `userData`
// (appData + product name), computed here without Electron so the desktop app, browser mode and the CLI
// share one memory. Precedence: --data-dir, then MNEMO_DATA_DIR, then the platform default.
import { chmodSync, mkdirSync, statSync } from 'node:fs';
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
 * An existing folder keeps its mode: the user may have chosen to share it. Throws a message without a
 * stack-worthy cause when the path exists but is not a folder.
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

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim().length > 0 ? value : undefined;
}

function expandHome(p: string, home: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p;
}

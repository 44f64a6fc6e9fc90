// Settings over `conf` (electron-store's plain-Node base), pointed explicitly at DATA_DIR/config.json:
// the very file electron-store uses in Electron (userData/config.json), so every face shares them.
// Only the keys the user changed are stored, each validated on read against shared/channels/settings.ts;
// an invalid value falls back to its default with a log line, and a corrupt file is set aside (kept for
// the user, never silently lost) rather than crashing. Keys this module does not own (e.g. the shell's
// window bounds) are preserved on every write.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { defaultSettings, settingsSchema, type Settings } from '../../shared/channels/settings.js';
import { ContractError } from '../../shared/errors.js';
import type { Logger, SettingsStore } from './context.js';
import { createFileKeyVault, type KeyLoad, type KeyVault } from './key-vault.js';

/** The part of Conf / ElectronStore this module uses, so the shell can pass an ElectronStore instance. */
export interface ConfLike {
  readonly path: string;
  store: Record<string, unknown>;
}

export interface SettingsStoreOptions {
  dataDir: string;
  log: Logger;
  env?: NodeJS.ProcessEnv;
  /** Where a stored key lives; defaults to the plain-text 0600 file DATA_DIR/api-key. */
  vault?: KeyVault;
  /**
   * Defaults to `new Conf({ cwd: dataDir, configName: 'config' })`. Electron passes a factory that makes
   * its ElectronStore on the same file; a factory runs after a corrupt file was set aside (a store's
   * constructor would throw on it).
   */
  conf?: ConfLike | (() => ConfLike);
  /** Told the stored key whenever it is (re)read: the logger masks it without reading the file itself. */
  onStoredKey?: (key: string | undefined) => void;
}

export type FileSettingsStore = SettingsStore & { readonly path: string };

export const CONFIG_NAME = 'config';
/** File options shared with the desktop app's electron-store, so both write config.json alike. */
export const CONFIG_FILE_OPTIONS = { configFileMode: 0o600, accessPropertiesByDotNotation: false } as const;
const settingKeys = Object.keys(settingsSchema.shape) as (keyof Settings)[];
const patchSchema = settingsSchema.partial().strict();

export function createSettingsStore(options: SettingsStoreOptions): FileSettingsStore {
  const { dataDir, log } = options;
  const env = options.env ?? process.env;
  const configPath = path.join(dataDir, `${CONFIG_NAME}.json`);
  if (typeof options.conf !== 'object') setAsideIfCorrupt(configPath, log);
  const conf: ConfLike =
    typeof options.conf === 'function'
      ? options.conf()
      : (options.conf ??
        new Conf<Record<string, unknown>>({
          cwd: dataDir,
          configName: CONFIG_NAME,
          ...CONFIG_FILE_OPTIONS,
        }));
  const vault = options.vault ?? createFileKeyVault({ dataDir });
  const warned = new Set<string>();

  // The stored key is read once at start and again when this process saves one, never per call: a read
  // that fails logs a warning, and a logger that read the key to mask it would loop for ever (issue 11).
  let stored: KeyLoad = {};
  const loadStored = (): void => {
    stored = vault.load();
    options.onStoredKey?.(stored.key);
    if (stored.problem) log.warn(`API key not loaded: ${stored.problem}`);
  };
  loadStored();

  const readRaw = (): Record<string, unknown> => {
    try {
      return { ...conf.store };
    } catch (error) {
      // Changed on disk by hand or by another process since startup.
      log.warn('settings file unreadable; using defaults', { error: (error as Error).message });
      setAsideIfCorrupt(conf.path, log);
      return {};
    }
  };

  const get = (): Settings => {
    const raw = readRaw();
    const out: Record<string, unknown> = { ...defaultSettings };
    for (const key of settingKeys) {
      if (!(key in raw)) continue;
      const parsed = settingsSchema.shape[key].safeParse(raw[key]);
      if (parsed.success) {
        out[key] = parsed.data;
      } else if (!warned.has(key)) {
        warned.add(key);
        log.warn(`invalid stored setting "${key}"; using the default`, {
          issue: parsed.error.issues[0]?.message,
        });
      }
    }
    return out as Settings;
  };

  const envKey = (): string | undefined => {
    const key = env.ANTHROPIC_API_KEY?.trim();
    return key && key.length > 0 ? key : undefined;
  };

  return {
    path: conf.path,
    get,
    set(patch) {
      const parsed = patchSchema.safeParse(patch);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
        throw new ContractError('invalid_request', `Invalid setting ${where}${issue?.message ?? 'rejected'}`);
      }
      const raw = readRaw();
      for (const [key, value] of Object.entries(parsed.data)) {
        if (value !== undefined) raw[key] = value;
        warned.delete(key);
      }
      conf.store = raw;
      return get();
    },
    reset() {
      const raw = readRaw();
      for (const key of settingKeys) delete raw[key];
      conf.store = raw;
      warned.clear();
      return get();
    },
    apiKey() {
      return envKey() ?? stored.key;
    },
    setApiKey(key) {
      vault.write(key === null ? null : key.trim());
      loadStored();
    },
    apiKeyStatus() {
      if (envKey() !== undefined) return { hasApiKey: true, source: 'env', insecureStorage: false };
      if (stored.key !== undefined) {
        return { hasApiKey: true, source: 'stored', insecureStorage: !vault.secure };
      }
      // No key yet: say whether one saved now would be encrypted, so the form can warn before saving.
      return {
        hasApiKey: false,
        source: 'none',
        insecureStorage: !vault.secure,
        ...(stored.problem ? { problem: stored.problem } : {}),
      };
    },
  };
}

/** Renames a config file that is not a JSON object to config.corrupt-<time>.json, so startup goes on. */
function setAsideIfCorrupt(file: string, log: Logger): void {
  if (!existsSync(file)) return;
  let ok: boolean;
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    ok = value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    ok = false;
  }
  if (ok) return;
  const aside = file.replace(/\.json$/, `.corrupt-${Date.now()}.json`);
  try {
    renameSync(file, aside);
    log.warn('settings file was not valid JSON; set it aside and using defaults', {
      keptAs: path.basename(aside),
    });
  } catch (error) {
    log.error('settings file is corrupt and could not be set aside', { error: (error as Error).message });
  }
}

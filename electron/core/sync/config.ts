// Where a space's sync settings live on this device: DIR/sync/<space-id>.remote.json (the remote's URL
// without credentials, the user name, this device's name) and the token in its own owner-only file
// (DIR/sync/<space-id>.token) through the key vault's cipher: safeStorage in the desktop app, plain text
// elsewhere, like the API key. Neither ever syncs, and the token is never logged or shown again.
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { detectSecret } from '../../../memory/secrets.js';
import { plainTextCipher, type KeyCipher } from '../key-vault.js';
import { cleanDevice } from './provenance.js';

export const SYNC_FOLDER = 'sync';
export const MIN_CHECK_SECONDS = 5;
export const MAX_CHECK_SECONDS = 86_400;

export interface SyncPaths {
  gitdir: string;
  remoteFile: string;
  tokenFile: string;
  stateFile: string;
  lockFile: string;
  conflictsDir: string;
  conflictsFile: string;
  backupsDir: string;
}

export function syncPaths(dataDir: string, spaceId: string): SyncPaths {
  const dir = path.join(dataDir, SYNC_FOLDER);
  return {
    gitdir: path.join(dir, `${spaceId}.git`),
    remoteFile: path.join(dir, `${spaceId}.remote.json`),
    tokenFile: path.join(dir, `${spaceId}.token`),
    stateFile: path.join(dir, `${spaceId}.state.json`),
    lockFile: path.join(dir, `${spaceId}.lock`),
    conflictsDir: path.join(dir, `${spaceId}.conflicts`),
    conflictsFile: path.join(dir, `${spaceId}.conflicts.json`),
    backupsDir: path.join(dir, `${spaceId}.backups`),
  };
}

const remoteSchema = z.object({
  v: z.literal(1),
  url: z.string(),
  username: z.string(),
  device: z.string(),
  /** The id of the space the remote holds (it may differ from this device's id for the space). */
  remoteSpaceId: z.string().optional(),
  /** How often this device checks the remote while the app runs (Settings → Sync; default 60 s). */
  checkSeconds: z.number().int().min(MIN_CHECK_SECONDS).max(MAX_CHECK_SECONDS).optional(),
});
export type RemoteConfig = z.infer<typeof remoteSchema>;

/** Writes a small file owner-only, by temp file, sync and rename. */
export function writePrivate(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  // Synced before the rename: a power cut leaves the old file or the whole new one, never an empty one.
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * An HTTPS (or loopback HTTP) URL without credentials: a user name in it is taken out and returned. A
 * password, a query string or a fragment (where hosts put access tokens: `?access_token=…`), and a user
 * name that is itself a token (`https://ghp_…@host`), are refused: the URL is saved in remote.json and
 * shown in the window, the terminal and the log, where the token field's value never goes.
 */
export function parseRemoteUrl(raw: string): { url: string; username?: string } {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new Error('The remote must be an address like https://git.example.com/me/notes.git.');
  }
  const loopback = u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]';
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback)) {
    throw new Error('The remote must be an https:// address (the token would travel unencrypted otherwise).');
  }
  const username = u.username ? decodeURIComponent(u.username) : undefined;
  const tokenAsUser = username !== undefined && detectSecret(username) !== null;
  if (u.password || u.search || u.hash || tokenAsUser) {
    // Shown without any of the parts that may hold the token, so the message never repeats it.
    const shown = new URL(u.href);
    shown.password = '';
    if (tokenAsUser) shown.username = '';
    shown.search = '';
    shown.hash = '';
    throw new Error(
      `Put the token in the token field (or MNEMO_SYNC_TOKEN), not in the address: ${shown.toString()}`,
    );
  }
  u.username = '';
  return { url: u.toString(), ...(username ? { username } : {}) };
}

export class SyncConfigStore {
  constructor(
    private readonly paths: SyncPaths,
    private readonly cipher: KeyCipher = plainTextCipher,
  ) {}

  remote(): RemoteConfig | undefined {
    const parsed = remoteSchema.safeParse(readJson(this.paths.remoteFile));
    return parsed.success ? parsed.data : undefined;
  }

  /** Sets the remote; the check interval chosen before stays unless `config` names one. */
  setRemote(config: Omit<RemoteConfig, 'v'>): void {
    const before = this.remote()?.checkSeconds;
    writePrivate(
      this.paths.remoteFile,
      JSON.stringify({
        v: 1,
        ...(before !== undefined ? { checkSeconds: before } : {}),
        ...config,
        device: cleanDevice(config.device),
      }),
    );
  }

  token(): string | undefined {
    const file = readJson(this.paths.tokenFile) as { v?: number; scheme?: string; data?: string } | undefined;
    if (!file || file.v !== 1 || file.scheme !== this.cipher.scheme || typeof file.data !== 'string')
      return undefined;
    try {
      return this.cipher.decrypt(Buffer.from(file.data, 'base64')) || undefined;
    } catch {
      return undefined;
    }
  }

  setToken(token: string | null): void {
    if (token === null) return rmSync(this.paths.tokenFile, { force: true });
    const data = Buffer.from(this.cipher.encrypt(token)).toString('base64');
    writePrivate(this.paths.tokenFile, JSON.stringify({ v: 1, scheme: this.cipher.scheme, data }));
  }

  /** Disconnect: the remote and token go; the space's own data stays, and so does the git folder. */
  disconnect(): void {
    rmSync(this.paths.remoteFile, { force: true });
    rmSync(this.paths.tokenFile, { force: true });
  }
}

export function defaultDeviceName(): string {
  return cleanDevice(os.hostname() || 'this device');
}

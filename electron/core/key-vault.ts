// Where a stored API key lives: a separate owner-only file (DATA_DIR/api-key), never config.json, so the
// settings file can be shared, backed up or shown without leaking the key. The bytes are produced by a
// pluggable cipher: plain text under Node (CLI, browser mode; the UI warns that it is unencrypted) and
// Electron's safeStorage in the desktop app (the shell plugs it in; core never imports electron).
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface KeyCipher {
  /** Written into the file so a reader with another cipher knows it cannot decrypt it. */
  readonly scheme: string;
  /** false when the "encryption" is none (plain text): the UI shows a warning. */
  readonly secure: boolean;
  encrypt(plain: string): Uint8Array;
  decrypt(data: Uint8Array): string;
}

export const plainTextCipher: KeyCipher = {
  scheme: 'plain',
  secure: false,
  encrypt: (plain) => Buffer.from(plain, 'utf8'),
  decrypt: (data) => Buffer.from(data).toString('utf8'),
};

/** What reading the key file found: the key, or (a stored key that cannot be used) what to tell the user. */
export interface KeyLoad {
  key?: string;
  /** A person-facing sentence: why the stored key is not used and what to do (no path, no secret). */
  problem?: string;
}

export const UNREADABLE_KEYCHAIN =
  "The saved key was encrypted by the desktop app's keychain and can't be read here: set ANTHROPIC_API_KEY or enter the key again";

export interface KeyVault {
  /** Reads the file (no side effects: the caller reports a problem, once). */
  load(): KeyLoad;
  read(): string | undefined;
  write(key: string | null): void;
  /** true when a stored key exists and is protected by the OS keychain. */
  readonly secure: boolean;
}

interface KeyFile {
  v: 1;
  scheme: string;
  data: string;
}

export const API_KEY_FILE = 'api-key';

export interface FileKeyVaultOptions {
  dataDir: string;
  cipher?: KeyCipher;
}

const AGAIN = 'set ANTHROPIC_API_KEY or enter the key again';

export function createFileKeyVault(options: FileKeyVaultOptions): KeyVault {
  const file = path.join(options.dataDir, API_KEY_FILE);
  const cipher = options.cipher ?? plainTextCipher;
  return {
    secure: cipher.secure,
    load() {
      let raw: string;
      try {
        raw = readFileSync(file, 'utf8');
      } catch {
        return {};
      }
      let parsed: Partial<KeyFile>;
      try {
        parsed = JSON.parse(raw) as Partial<KeyFile>;
      } catch {
        parsed = {};
      }
      if (parsed.v !== 1 || typeof parsed.data !== 'string' || typeof parsed.scheme !== 'string') {
        return { problem: `The saved key file is damaged and can't be read: ${AGAIN}` };
      }
      if (parsed.scheme !== cipher.scheme) {
        return {
          problem:
            parsed.scheme === 'safeStorage'
              ? UNREADABLE_KEYCHAIN
              : `The saved key was saved with ${schemeName(parsed.scheme)} protection, which can't be read here: ${AGAIN}`,
        };
      }
      try {
        const key = cipher.decrypt(Buffer.from(parsed.data, 'base64')).trim();
        return key.length > 0 ? { key } : {};
      } catch {
        return { problem: `The saved key could not be decrypted on this system: ${AGAIN}` };
      }
    },
    read() {
      return this.load().key;
    },
    write(key) {
      if (key === null) {
        rmSync(file, { force: true });
        return;
      }
      const content: KeyFile = {
        v: 1,
        scheme: cipher.scheme,
        data: Buffer.from(cipher.encrypt(key)).toString('base64'),
      };
      // Temp file + rename: a crash never leaves half a key; 0600 from the first byte.
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(content), { mode: 0o600 });
      if (process.platform !== 'win32') chmodSync(tmp, 0o600);
      renameSync(tmp, file);
    },
  };
}

/** A scheme name from the file, shown to the user: only a short plain word, never arbitrary file content. */
function schemeName(scheme: string): string {
  return /^[A-Za-z0-9_-]{1,32}$/.test(scheme) ? scheme : 'another';
}

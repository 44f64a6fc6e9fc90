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

export interface KeyVault {
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
  /** Told when a stored key exists but cannot be read (e.g. encrypted by the desktop app). */
  onUnreadable?: (reason: string) => void;
}

export function createFileKeyVault(options: FileKeyVaultOptions): KeyVault {
  const file = path.join(options.dataDir, API_KEY_FILE);
  const cipher = options.cipher ?? plainTextCipher;
  return {
    secure: cipher.secure,
    read() {
      let raw: string;
      try {
        raw = readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
      try {
        const parsed = JSON.parse(raw) as Partial<KeyFile>;
        if (parsed.v !== 1 || typeof parsed.data !== 'string' || typeof parsed.scheme !== 'string') {
          throw new Error('unknown format');
        }
        if (parsed.scheme !== cipher.scheme) {
          options.onUnreadable?.(
            `the stored API key was saved with ${parsed.scheme} protection, which this face cannot read`,
          );
          return undefined;
        }
        const key = cipher.decrypt(Buffer.from(parsed.data, 'base64')).trim();
        return key.length > 0 ? key : undefined;
      } catch (error) {
        options.onUnreadable?.(`the stored API key file is unreadable (${(error as Error).message})`);
        return undefined;
      }
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

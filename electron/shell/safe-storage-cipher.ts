// The desktop app's KeyCipher: Electron's safeStorage (Keychain on macOS, DPAPI on Windows, the Secret
// Service or KWallet on Linux). On Linux without a keyring, safeStorage falls back to a hard-coded
// password ("basic_text"): still written, but marked insecure so Settings shows a warning.
import { plainTextCipher, type KeyCipher } from '../core/key-vault.js';

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(data: Buffer): string;
  getSelectedStorageBackend?(): string;
}

export function safeStorageCipher(safeStorage: SafeStorageLike, platform: NodeJS.Platform): KeyCipher {
  if (!safeStorage.isEncryptionAvailable()) return plainTextCipher;
  const backend = platform === 'linux' ? safeStorage.getSelectedStorageBackend?.() : undefined;
  return {
    scheme: 'safeStorage',
    secure: backend !== 'basic_text',
    // The synchronous calls are deprecated in favour of the async ones, but KeyCipher is synchronous and
    // the key is tiny; revisit when the vault becomes async.
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (data) => safeStorage.decryptString(Buffer.from(data)),
  };
}

// The Electron side of the host interface and the key cipher, with stand-ins for Electron's dialog, shell
// and safeStorage (Electron itself cannot load here); the files written are real.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createElectronHost } from '../../../electron/shell/host-electron.js';
import { safeStorageCipher } from '../../../electron/shell/safe-storage-cipher.js';

function host(answers: { save?: string; message?: number; open?: string[] }) {
  const calls: { kind: string; options: unknown }[] = [];
  const opened: string[] = [];
  const electronHost = createElectronHost({
    window: () => 'window',
    downloadsDir: '/home/user/Downloads',
    dialog: {
      showSaveDialog: async (_w, options) => {
        calls.push({ kind: 'save', options });
        return answers.save ? { canceled: false, filePath: answers.save } : { canceled: true };
      },
      showOpenDialog: async (_w, options) => {
        calls.push({ kind: 'open', options });
        return answers.open
          ? { canceled: false, filePaths: answers.open }
          : { canceled: true, filePaths: [] };
      },
      showMessageBox: async (_w, options) => {
        calls.push({ kind: 'message', options });
        return { response: answers.message ?? 0 };
      },
    },
    shell: {
      openExternal: async (url) => void opened.push(url),
      openPath: async (p) => (p.startsWith('/missing') ? 'Failed to open path' : ''),
    },
  });
  return { electronHost, calls, opened };
}

describe('Electron host: native dialogs', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-host-'));

  it('exports where the save dialog says, owner-only; the renderer never names the path', async () => {
    const target = path.join(dir, 'memory.zip');
    const { electronHost, calls } = host({ save: target });
    const result = await electronHost.saveFile({
      defaultName: 'mnemo-memory.zip',
      mime: 'application/zip',
      data: new Uint8Array([80, 75]),
    });
    expect(result).toEqual({ saved: true, fileName: 'memory.zip' });
    expect(fs.readFileSync(target)).toEqual(Buffer.from([80, 75]));
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    expect(calls[0]?.options).toMatchObject({ defaultPath: '/home/user/Downloads/mnemo-memory.zip' });
  });

  it('writes nothing when the save dialog is cancelled', async () => {
    expect(
      await host({}).electronHost.saveFile({
        defaultName: 'x.zip',
        mime: 'application/zip',
        data: new Uint8Array(),
      }),
    ).toEqual({ saved: false });
  });

  it('imports a .zip or a folder picked in an open dialog, or nothing when cancelled', async () => {
    const zip = path.join(dir, 'in.zip');
    fs.writeFileSync(zip, 'PK');
    expect(await host({ message: 0, open: [zip] }).electronHost.pickImport({})).toMatchObject({
      kind: 'zip',
      name: 'in.zip',
    });
    expect(await host({ message: 1, open: [dir] }).electronHost.pickImport({})).toEqual({
      kind: 'folder',
      path: dir,
    });
    expect(await host({ message: 2 }).electronHost.pickImport({})).toBeNull();
    expect(await host({ message: 0 }).electronHost.pickImport({})).toBeNull();
  });

  it('confirms destructive actions with Cancel as the default', async () => {
    const yes = host({ message: 0 });
    expect(
      await yes.electronHost.confirm!({ message: 'Delete?', detail: '3 files', confirmLabel: 'Delete' }),
    ).toBe(true);
    expect(yes.calls[0]?.options).toMatchObject({ buttons: ['Delete', 'Cancel'], defaultId: 1, cancelId: 1 });
    expect(
      await host({ message: 1 }).electronHost.confirm!({
        message: 'Delete?',
        detail: '',
        confirmLabel: 'Delete',
      }),
    ).toBe(false);
  });

  it('reveals folders and reports failure', async () => {
    const { electronHost } = host({});
    expect(await electronHost.openFolder(dir)).toBe(true);
    expect(await electronHost.openFolder('/missing/folder')).toBe(false);
  });
});

describe('safeStorage key cipher', () => {
  const fake = (available: boolean, backend: string) => ({
    isEncryptionAvailable: () => available,
    encryptString: (s: string) => Buffer.from([...Buffer.from(s)].reverse()),
    decryptString: (b: Buffer) => Buffer.from([...b].reverse()).toString(),
    getSelectedStorageBackend: () => backend,
  });

  it('encrypts with the keychain and round-trips', () => {
    const cipher = safeStorageCipher(fake(true, 'gnome_libsecret'), 'linux');
    expect(cipher.secure).toBe(true);
    const data = cipher.encrypt('sk-ant-secret');
    expect(Buffer.from(data).toString()).not.toContain('sk-ant');
    expect(cipher.decrypt(data)).toBe('sk-ant-secret');
  });

  it('is marked insecure on Linux when only the plain-text backend is available', () => {
    expect(safeStorageCipher(fake(true, 'basic_text'), 'linux').secure).toBe(false);
    expect(safeStorageCipher(fake(true, 'basic_text'), 'darwin').secure).toBe(true);
  });

  it('falls back to the plain cipher (insecure) when encryption is unavailable', () => {
    const cipher = safeStorageCipher(fake(false, 'unknown'), 'linux');
    expect(cipher.secure).toBe(false);
    expect(cipher.scheme).toBe('plain');
  });
});

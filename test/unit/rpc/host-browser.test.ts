import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserHost, safeFileName } from '../../../electron/core/host-browser.js';
import { ContractError } from '../../../shared/errors.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function host(maxUploadBytes = 1024) {
  const dir = await mkdtemp(path.join(tmpdir(), 'mnemo-host-'));
  dirs.push(dir);
  let t = 0;
  const h = createBrowserHost({
    uploadDir: path.join(dir, 'uploads'),
    maxUploadBytes,
    ttlMs: 1000,
    now: () => t,
  });
  return { h, dir, advance: (ms: number) => (t += ms) };
}

describe('browser host', () => {
  it('forgets unused downloads and uploads after their time, and removes the upload file', async () => {
    const { h, dir, advance } = await host();
    const saved = await h.saveFile({
      defaultName: 'a.zip',
      mime: 'application/zip',
      data: new Uint8Array([1]),
    });
    const uploadId = await h.storeUpload('b.zip', new Uint8Array([2]));
    expect(await readdir(path.join(dir, 'uploads'))).toHaveLength(1);
    advance(1001);
    expect(h.takeDownload(saved.downloadUrl!.split('/').pop()!)).toBeUndefined();
    await expect(h.pickImport({ uploadId })).rejects.toBeInstanceOf(ContractError);
    expect(await readdir(path.join(dir, 'uploads'))).toEqual([]);
  });

  it('refuses an upload above its cap, ignores malformed ids, and cleans up on dispose', async () => {
    const { h, dir } = await host(4);
    await expect(h.storeUpload('big.zip', new Uint8Array(5))).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await h.storeUpload('ok.zip', new Uint8Array(4));
    expect(h.takeDownload('../../etc/passwd')).toBeUndefined();
    await expect(h.pickImport({ uploadId: '../x' })).rejects.toMatchObject({ code: 'not_found' });
    await h.dispose();
    expect(await readdir(path.join(dir, 'uploads'))).toEqual([]);
    expect(await h.openExternal('https://example.com')).toBe(false);
    expect(await h.openFolder('/tmp')).toBe(false);
  });

  it.each([
    ['../../evil.zip', 'evil.zip'],
    ['C:\\Users\\me\\memories.zip', 'memories.zip'],
    ['a\u0000b"c<d>.zip', 'abcd.zip'],
    ['..', 'fallback'],
    ['', 'fallback'],
    ['   ', 'fallback'],
  ])('makes a safe file name of %j', (input, expected) => {
    expect(safeFileName(input, 'fallback')).toBe(expected);
  });
});

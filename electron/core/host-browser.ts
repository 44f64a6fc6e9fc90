// The browser side of HostServices: there are no native dialogs in browser mode, so an export becomes a
// one-time download URL and an import reads a file the renderer uploaded first (electron/web.ts serves
// both). Links and folders are opened by the browser itself after the main-side check, so those are no-ops.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ContractError } from '../../shared/errors.js';
import type { HostServices, ImportSource, SaveFileRequest, SaveFileResult } from './host.js';

export const DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const DEFAULT_TTL_MS = 30 * 60 * 1000;

export interface BrowserHostOptions {
  /** A folder of its own for uploads (created if missing; emptied of our files on dispose). */
  uploadDir: string;
  maxUploadBytes?: number;
  /** How long an unused upload or download is kept. */
  ttlMs?: number;
  now?: () => number;
}

export interface Download {
  fileName: string;
  mime: string;
  data: Uint8Array;
}

export interface BrowserHost extends HostServices {
  readonly kind: 'browser';
  readonly maxUploadBytes: number;
  /** Keeps an uploaded file until pickImport takes it; returns the id the renderer passes on. */
  storeUpload(fileName: string, data: Uint8Array): Promise<string>;
  /** Returns a download once: a second request for the same id finds nothing. */
  takeDownload(id: string): Download | undefined;
  dispose(): Promise<void>;
}

/** 32 random characters: unguessable, so a download URL is a capability of its own. */
const newId = (): string => randomBytes(24).toString('base64url');
const ID_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** A file name safe to show and to put in Content-Disposition: no folders, no control characters. */
export function safeFileName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f"<>:|?*]/g, '')
    .trim()
    .slice(0, 200);
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : fallback;
}

export function createBrowserHost(options: BrowserHostOptions): BrowserHost {
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const now = options.now ?? Date.now;
  const uploads = new Map<string, { fileName: string; file: string; expires: number }>();
  const downloads = new Map<string, Download & { expires: number }>();
  let ready: Promise<unknown> | undefined;
  const removing = new Set<Promise<void>>();

  /** Forgets what expired; resolves once expired upload files are gone. */
  const sweep = (): Promise<unknown> => {
    const t = now();
    for (const [id, d] of downloads) if (d.expires < t) downloads.delete(id);
    for (const [id, u] of uploads) {
      if (u.expires < t) {
        uploads.delete(id);
        const removal = rm(u.file, { force: true }).finally(() => removing.delete(removal));
        removing.add(removal);
      }
    }
    return Promise.all(removing);
  };

  return {
    kind: 'browser',
    maxUploadBytes,

    async saveFile(request: SaveFileRequest): Promise<SaveFileResult> {
      await sweep();
      const id = newId();
      const fileName = safeFileName(request.defaultName, 'mnemo-export');
      downloads.set(id, { fileName, mime: request.mime, data: request.data, expires: now() + ttlMs });
      return { saved: true, fileName, downloadUrl: `/download/${id}` };
    },

    async pickImport({ uploadId }): Promise<ImportSource | null> {
      await sweep();
      if (uploadId === undefined) return null;
      const upload = ID_PATTERN.test(uploadId) ? uploads.get(uploadId) : undefined;
      if (!upload) {
        throw new ContractError(
          'not_found',
          'That upload is no longer available (uploads are kept for 30 minutes and used once). Choose the file again.',
        );
      }
      uploads.delete(uploadId);
      try {
        return { kind: 'zip', name: upload.fileName, data: new Uint8Array(await readFile(upload.file)) };
      } finally {
        await rm(upload.file, { force: true });
      }
    },

    openExternal: () => Promise.resolve(false),
    openFolder: () => Promise.resolve(false),

    async storeUpload(fileName, data) {
      if (data.byteLength > maxUploadBytes) {
        throw new ContractError(
          'invalid_request',
          `The file is too large (at most ${maxUploadBytes / 1024 / 1024} MB).`,
        );
      }
      await sweep();
      ready ??= mkdir(options.uploadDir, { recursive: true, mode: 0o700 });
      await ready;
      const id = newId();
      const file = path.join(options.uploadDir, `${id}.upload`);
      await writeFile(file, data, { mode: 0o600 });
      uploads.set(id, { fileName: safeFileName(fileName, 'upload.zip'), file, expires: now() + ttlMs });
      return id;
    },

    takeDownload(id) {
      void sweep();
      const download = ID_PATTERN.test(id) ? downloads.get(id) : undefined;
      if (!download) return undefined;
      downloads.delete(id);
      return { fileName: download.fileName, mime: download.mime, data: download.data };
    },

    async dispose() {
      downloads.clear();
      const files = [...uploads.values()].map((u) => u.file);
      uploads.clear();
      await Promise.all(files.map((file) => rm(file, { force: true })));
    },
  };
}

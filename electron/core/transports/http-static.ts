// Static files for browser mode: the built renderer only. Hand-written rather than a library (sirv,
// serve-static) because the set of files is fixed and small, and the rules we need are few and must be
// exact: no path outside the root (encoded or not), a fixed MIME table with nosniff, no dotfiles, no
// directory listings, and the SPA fallback to index.html for extension-less paths.
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

export type StaticResult =
  | { status: 200; body: Buffer; contentType: string; fileName: string }
  | { status: 400 | 404; message: string };

/** Maps a URL pathname to a file under root, or says why not. */
export async function resolveStatic(root: string, pathname: string): Promise<StaticResult> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { status: 400, message: 'Bad path.' };
  }
  if (decoded.includes('\0') || decoded.includes('\\') || !decoded.startsWith('/')) {
    return { status: 400, message: 'Bad path.' };
  }
  const segments = decoded.split('/').filter(Boolean);
  if (segments.some((s) => s === '..' || s.startsWith('.'))) return { status: 404, message: 'Not found.' };

  const realRoot = await realpath(root).catch(() => null);
  if (!realRoot) return { status: 404, message: 'The renderer is not built (run npm run build:web).' };
  let relative = segments.join('/');
  if (relative === '' || decoded.endsWith('/')) relative = path.posix.join(relative, 'index.html');

  const found = await readInside(realRoot, relative);
  if (found) return found;
  // Client-side routes (no extension) get the app itself.
  if (path.posix.extname(relative) === '') {
    const index = await readInside(realRoot, 'index.html');
    if (index) return index;
  }
  return { status: 404, message: 'Not found.' };
}

async function readInside(realRoot: string, relative: string): Promise<StaticResult | null> {
  const candidate = path.join(realRoot, ...relative.split('/'));
  // realpath: a symlink inside the build must not lead outside it.
  const real = await realpath(candidate).catch(() => null);
  if (!real || !(real === realRoot || real.startsWith(realRoot + path.sep))) return null;
  const info = await stat(real).catch(() => null);
  if (!info?.isFile()) return null;
  const contentType = MIME[path.extname(real).toLowerCase()] ?? 'application/octet-stream';
  return { status: 200, body: await readFile(real), contentType, fileName: path.basename(real) };
}

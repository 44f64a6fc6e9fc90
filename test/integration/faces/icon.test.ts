// The page names its icon and the built renderer serves it (browser mode and app:// share resolveStatic):
// loading the app requests nothing that is not there (before, every page load asked for /favicon.ico: 404).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStatic } from '../../../electron/core/transports/http-static.js';

const root = path.resolve('dist/renderer');

describe('the app icon', () => {
  it('is linked from index.html and served as SVG', async () => {
    const html = await readFile(path.join(root, 'index.html'), 'utf8');
    const href = /<link rel="icon" type="image\/svg\+xml" href="\.\/([^"]+)"/.exec(html)?.[1];
    expect(href).toBe('favicon.svg');
    const served = await resolveStatic(root, `/${href}`);
    expect(served).toMatchObject({ status: 200, contentType: 'image/svg+xml' });
    expect(await readFile(path.join(root, href!), 'utf8')).toBe(
      await readFile('electron/resources/icon.svg', 'utf8'),
    );
  });
});

// The main process finds its preload and renderer from its module URL: real paths for folders with
// spaces and non-ASCII names (where `new URL(...).pathname` gave `%20` and percent-escapes), and the
// eslint rule that keeps `.pathname` of `import.meta.url` out of the code base fires on a planted example.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { appPaths } from '../../../electron/shell/app-paths.js';

const root = path.resolve(import.meta.dirname, '../../..');

describe('app paths', () => {
  it.each(['/home/ana/My Projects/mnemo', '/Users/zoë/Mnemo Tést ü', '/tmp/100% sure/#1', '/opt/mnemo'])(
    'are real paths under %s',
    (folder) => {
      const paths = appPaths(pathToFileURL(path.join(folder, 'dist/electron/main.js')).href);
      expect(paths).toEqual({
        here: path.join(folder, 'dist/electron'),
        rendererDir: path.join(folder, 'dist/renderer'),
        preloadPath: path.join(folder, 'dist/electron/preload.cjs'),
      });
    },
  );
});

describe('the lint rule against URL pathnames', () => {
  const eslint = new ESLint({ cwd: root });
  const lint = async (code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, 'electron/planted.ts') });
    return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };

  it.each([
    'export const here = new URL(import.meta.url).pathname;\n',
    "export const file = new URL('./preload.cjs', import.meta.url).pathname;\n",
    'export const p = decodeURIComponent(new URL(import.meta.url).pathname);\n',
  ])('fires on %s', async (code) => {
    expect(await lint(code)).toEqual([expect.stringMatching(/fileURLToPath/)]);
  });

  it('stays quiet on fileURLToPath and on other URLs', async () => {
    expect(
      await lint(
        [
          "import { fileURLToPath } from 'node:url';",
          'export const here = fileURLToPath(import.meta.url);',
          "export const q = new URL('https://example.com/a').pathname;",
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});

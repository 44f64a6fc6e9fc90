// A benchmark run on its own (`node dist/bench/ui/index.js`) knows it is the main module, wherever the
// checkout is: bench/ui compared import.meta.url with `file://${argv[1]}`, which never matched under a
// folder with a space or a non-ASCII name, so it printed nothing there.
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isMain } from '../../../bench/is-main.js';

describe('isMain', () => {
  it.each([
    '/work/mnemo/dist/bench/ui/index.js',
    '/home/ana maria/mnemo/index.js',
    '/tmp/Über #1/ç%20/index.js',
  ])('is true for the script node runs: %s', (script) => {
    // What Node sets import.meta.url to for that script.
    const url = pathToFileURL(script).href;
    expect(isMain(url, script)).toBe(true);
    expect(isMain(url, `${script}.other.js`)).toBe(false);
  });

  it('is false when node runs no script (a REPL) or another one', () => {
    expect(isMain(pathToFileURL('/a/index.js').href, undefined)).toBe(false);
    expect(isMain(pathToFileURL('/a/index.js').href, '/b/index.js')).toBe(false);
  });
});

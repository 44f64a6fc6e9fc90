// electron-builder.yml is checked by electron-builder's own configuration validator (its JSON schema),
// plus the project's own requirements on fuses, targets and excluded files.
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js');
const { DebugLogger } = require('builder-util');

const root = path.resolve(import.meta.dirname, '../../..');

async function load() {
  return getConfig(root, path.join(root, 'electron-builder.yml'), null);
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own schema', async () => {
    await expect(validateConfiguration(await load(), new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('is really validated: an unknown option is refused', async () => {
    const config = { ...(await load()), notAnOption: true };
    await expect(validateConfiguration(config, new DebugLogger(false))).rejects.toThrow(/notAnOption/);
  });

  it('turns the dangerous fuses off and asar integrity on', async () => {
    const { electronFuses, asar } = await load();
    expect(asar).toBe(true);
    expect(electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('re-signs unsigned macOS builds ad hoc after flipping the fuses (Apple Silicon kills them otherwise)', async () => {
    const { electronFuses } = await load();
    expect(electronFuses.resetAdHocDarwinSignature).toBe(true);
  });

  it('builds AppImage + deb, dmg and nsis with an app id and an icon', async () => {
    const config = await load();
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z]+)+$/);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.icon).toBe('electron/resources/icon.png');
  });

  it('ships no tests, benchmarks, sources or maps', async () => {
    // getConfig normalises the list into `{ filter: [...] }` entries.
    const files: string[] = (await load()).files.flatMap((f: string | { filter: string[] }) =>
      typeof f === 'string' ? [f] : f.filter,
    );
    expect(files).toEqual(expect.arrayContaining(['!dist/test/**', '!dist/bench/**', '!**/*.map']));
    expect(files.some((f) => /(^|\/)(test|bench|renderer\/src)\//.test(f) && !f.startsWith('!'))).toBe(false);
    expect(files.some((f) => f.endsWith('.ts') && !f.startsWith('!'))).toBe(false);
  });
});

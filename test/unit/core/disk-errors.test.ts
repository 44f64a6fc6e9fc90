// A full or read-only disk reaches the person as what it is, with what to do, from every layer that maps
// errors: the contract's error mapping and the run's error classification.
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../../electron/core/agent/errors.js';
import { diskMessage } from '../../../electron/core/disk-errors.js';
import { toErrorData } from '../../../electron/core/rpc/errors.js';

const errno = (code: string) => Object.assign(new Error(`${code}: oops, open '/home/x/data/file'`), { code });
const log = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('disk errors', () => {
  const cases = [
    {
      code: 'ENOSPC',
      words: /^The disk is full: .* Free some space and try again; what was saved before is kept\.$/,
    },
    { code: 'EDQUOT', words: /^The disk quota is used up: .* Free some space/ },
    { code: 'EROFS', words: /^The data folder is on a read-only disk: .* Make the folder writable/ },
  ];
  for (const c of cases) {
    it(`${c.code}: a handler's failure says so, without the errno text or a host path`, () => {
      const data = toErrorData(errno(c.code), log, 'settings.set');
      expect(data.code).toBe('unavailable');
      expect(data.message).toMatch(c.words);
      expect(data.message).not.toMatch(/oops|\/home|ENOSPC|EDQUOT|EROFS/);
    });
    it(`${c.code}: a run's failure says so`, () => {
      expect(classifyError(errno(c.code)).message).toMatch(c.words);
    });
    it(`${c.code}: found through a cause chain`, () => {
      expect(diskMessage(new Error('wrapped', { cause: errno(c.code) }))).toMatch(c.words);
    });
  }
  it('leaves other failures to the generic message', () => {
    expect(diskMessage(errno('EACCES'))).toBeUndefined();
    expect(toErrorData(errno('EACCES'), log, 'x').code).toBe('internal');
  });
});

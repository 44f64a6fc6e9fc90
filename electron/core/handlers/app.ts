// app.*: what the host is and where data lives, and the two host services whose argument comes from
// untrusted content: links (only parsed https: URLs reach the host's openExternal) and folders (the
// renderer names which folder, never a path).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext } from '../context.js';

type Domain = Pick<Handlers, 'app.info' | 'app.openExternal' | 'app.openDataFolder' | 'app.ready'>;

/** The URL to open, or a ContractError: https only, no embedded credentials. */
export function checkExternalUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ContractError('invalid_request', 'That link is not a valid web address.');
  }
  if (parsed.protocol !== 'https:') {
    throw new ContractError('invalid_request', 'Only https:// links can be opened.');
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new ContractError('invalid_request', 'Links with a user name or password are not opened.');
  }
  return parsed.href;
}

export function createAppHandlers(ctx: CoreContext): Domain {
  return {
    'app.info': () =>
      Promise.resolve({
        version: ctx.version,
        host: ctx.host.kind,
        dataDir: ctx.dataDir,
        platform: process.platform,
      }),
    'app.openExternal': async ({ url }) => {
      const href = checkExternalUrl(url);
      // Reviewed use of openExternal: checkExternalUrl lets only parsed https: URLs through.
      const opened = await ctx.host.openExternal(href);
      ctx.log.info('open external link', { host: new URL(href).host, opened });
      return { opened };
    },
    'app.openDataFolder': async ({ which }) => {
      const folder = which === 'memories' ? path.join(ctx.dataDir, 'memories') : ctx.dataDir;
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      return { opened: await ctx.host.openFolder(folder) };
    },
    // The transports answer `app.ready` themselves (readiness belongs to a connection); this is the
    // backend's answer for a transport that forwards it.
    'app.ready': () => Promise.resolve({ ok: true as const }),
  };
}

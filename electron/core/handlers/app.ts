// app.*: what the host is and where data lives, and the two host services whose argument comes from
// untrusted content: links (only parsed https: URLs reach the host's openExternal) and folders (the
// renderer names which folder, never a path).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DomainHandlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext } from '../context.js';
import { checkExternalUrl } from '../external-url.js';

type Domain = DomainHandlers<'app'>;

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
      const checked = checkExternalUrl(url);
      if (!checked.ok) throw new ContractError('invalid_request', checked.reason);
      const href = checked.url;
      // Reviewed use of openExternal: checkExternalUrl lets only parsed https: URLs through.
      const opened = await ctx.host.openExternal(href);
      ctx.log.info('open external link', { host: new URL(href).host, opened });
      return { opened };
    },
    'app.openDataFolder': async ({ which }) => {
      const folder =
        which === 'memories' ? path.join(ctx.space?.dir ?? ctx.dataDir, 'memories') : ctx.dataDir;
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      return { opened: await ctx.host.openFolder(folder) };
    },
    // The transports answer `app.ready` themselves (readiness belongs to a connection); this is the
    // backend's answer for a transport that forwards it.
    'app.ready': () => Promise.resolve({ ok: true as const }),
  };
}

// settings.*: the allow-list is the zod schema in shared/channels/settings.ts (the transport has already
// parsed the payload with it). The API key travels renderer → main only: every answer carries
// `apiKeyStatus`, never the key. Every change is broadcast as `settings.changed` so all windows agree.
import type { DomainHandlers } from '../../../shared/contract.js';
import type { Settings, SettingsView } from '../../../shared/channels/settings.js';
import { PERSONAL_SPACE_ID } from '../../../shared/channels/spaces.js';
import { confirmNatively } from '../confirm.js';
import type { CoreContext } from '../context.js';
import { memoryLimitsOf } from '../memory-limits.js';

type Domain = DomainHandlers<'settings'>;

/** What a space may set for itself (issue 15); everything else is global. */
const OWN_KEYS = ['memoryWriteMode', 'backfillBudgetTokens'] as const;
type OwnPatch = { -readonly [K in (typeof OWN_KEYS)[number]]?: Settings[K] | null };

/**
 * Splits a patch into the space's own part and the global rest. Any space but Personal keeps its write
 * mode and backfill budget to itself; Personal writes them globally as it always did (they are then
 * also the default of every space without its own), unless it has its own value already.
 */
async function splitPatch(
  ctx: CoreContext,
  patch: Partial<Settings>,
): Promise<{ own: OwnPatch; global: Partial<Settings> }> {
  const id = ctx.space?.id ?? PERSONAL_SPACE_ID;
  if (!ctx.spaces) return { own: {}, global: patch };
  const mine = id === PERSONAL_SPACE_ID ? ((await ctx.spaces.get(id))?.settings ?? {}) : undefined;
  const own: OwnPatch = {};
  const global: Partial<Settings> = { ...patch };
  for (const key of OWN_KEYS) {
    if (patch[key] === undefined) continue;
    if (mine && mine[key] === undefined) continue;
    (own as Record<string, unknown>)[key] = patch[key];
    delete global[key];
  }
  return { own, global };
}

export function createSettingsHandlers(ctx: CoreContext): Domain {
  const view = (): SettingsView => ({ settings: ctx.settings.get(), apiKey: ctx.settings.apiKeyStatus() });
  const changed = (): SettingsView => {
    const current = view();
    // Memory limits apply at once, without a restart (the store reads them on every write).
    ctx.memory.setLimits(memoryLimitsOf(current.settings));
    ctx.events.emit('settings.changed', current);
    return current;
  };
  return {
    'settings.get': () => Promise.resolve(view()),
    'settings.set': async ({ patch }) => {
      const { own, global } = await splitPatch(ctx, patch);
      if (Object.keys(own).length > 0) await ctx.spaces!.configure(ctx.space?.id ?? PERSONAL_SPACE_ID, own);
      if (Object.keys(global).length > 0 || Object.keys(own).length === 0) ctx.settings.set(global);
      ctx.log.info('settings changed', { keys: Object.keys(patch), ownToSpace: Object.keys(own) });
      return changed();
    },
    'settings.setApiKey': ({ apiKey }) => {
      ctx.settings.setApiKey(apiKey);
      ctx.log.info(apiKey === null ? 'stored API key removed' : 'API key stored', {
        source: ctx.settings.apiKeyStatus().source,
      });
      return Promise.resolve(changed());
    },
    'settings.reset': async () => {
      await confirmNatively(ctx.host, 'settings.reset');
      ctx.settings.reset();
      // The space's own values go too: a reset is the defaults everywhere the window looks.
      const id = ctx.space?.id ?? PERSONAL_SPACE_ID;
      const mine = (await ctx.spaces?.get(id))?.settings ?? {};
      if (Object.keys(mine).length > 0) {
        await ctx.spaces!.configure(id, { memoryWriteMode: null, backfillBudgetTokens: null });
      }
      ctx.log.info('settings reset to defaults');
      return changed();
    },
  };
}

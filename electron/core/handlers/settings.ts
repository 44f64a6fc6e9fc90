// settings.*: the allow-list is the zod schema in shared/channels/settings.ts (the transport has already
// parsed the payload with it). The API key travels renderer → main only: every answer carries
// `apiKeyStatus`, never the key. Every change is broadcast as `settings.changed` so all windows agree.
import type { DomainHandlers } from '../../../shared/contract.js';
import type { SettingsView } from '../../../shared/channels/settings.js';
import type { CoreContext } from '../context.js';
import { memoryLimitsOf } from '../memory-limits.js';

type Domain = DomainHandlers<'settings'>;

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
    'settings.set': ({ patch }) => {
      ctx.settings.set(patch);
      ctx.log.info('settings changed', { keys: Object.keys(patch) });
      return Promise.resolve(changed());
    },
    'settings.setApiKey': ({ apiKey }) => {
      ctx.settings.setApiKey(apiKey);
      ctx.log.info(apiKey === null ? 'stored API key removed' : 'API key stored', {
        source: ctx.settings.apiKeyStatus().source,
      });
      return Promise.resolve(changed());
    },
    'settings.reset': () => {
      ctx.settings.reset();
      ctx.log.info('settings reset to defaults');
      return Promise.resolve(changed());
    },
  };
}

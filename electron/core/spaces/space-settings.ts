// A space's view of the settings: the global ones (model, theme, API key, context, limits) with the
// space's own write mode and backfill budget on top where it set them. Writes go to the global settings,
// as they always did; a space's own values change through the registry (SpaceRegistry.configure).
import type { SettingsStore } from '../context.js';
import type { SpaceSettings } from './model.js';

export function spaceSettingsStore(global: SettingsStore, own: () => SpaceSettings): SettingsStore {
  const get = () => ({ ...global.get(), ...defined(own()) });
  return {
    get,
    set: (patch) => {
      global.set(patch);
      return get();
    },
    reset: () => {
      global.reset();
      return get();
    },
    apiKey: () => global.apiKey(),
    setApiKey: (key) => global.setApiKey(key),
    apiKeyStatus: () => global.apiKeyStatus(),
  };
}

/** The space's own values of global settings (recall is the space's alone: ctx.space.recall()). */
function defined(settings: SpaceSettings): SpaceSettings {
  return Object.fromEntries(Object.entries(settings).filter(([k, v]) => v !== undefined && k !== 'recall'));
}

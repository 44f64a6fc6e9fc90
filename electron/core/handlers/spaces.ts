// spaces.*: the list of spaces, the same in every space's table (a space-free domain, shared/contract.ts).
// Each change is broadcast as `spaces.changed`, so every window's switcher agrees.
import type { DomainHandlers } from '../../../shared/contract.js';
import type { SpaceInfo, TrashedSpaceInfo } from '../../../shared/channels/spaces.js';
import { ContractError } from '../../../shared/errors.js';
import { confirmNatively } from '../confirm.js';
import type { CoreContext, SpacesLink } from '../context.js';

type Domain = DomainHandlers<'spaces'>;

/** Only the fields of the contract (the registry's trash entry also knows its host folder). */
function info(space: SpaceInfo): SpaceInfo {
  return {
    id: space.id,
    name: space.name,
    colour: space.colour,
    created: space.created,
    settings: space.settings,
  };
}

function trashed(space: TrashedSpaceInfo): TrashedSpaceInfo {
  return { ...info(space), deletedAt: space.deletedAt, keptUntil: space.keptUntil };
}

export function createSpacesHandlers(ctx: CoreContext): Domain {
  const spaces = (): SpacesLink => {
    if (!ctx.spaces) throw new ContractError('unavailable', 'Spaces are not available here.');
    return ctx.spaces;
  };
  const changed = async <T>(result: T): Promise<T> => {
    ctx.events.emit('spaces.changed', { spaces: (await spaces().list()).map(info) });
    return result;
  };
  return {
    'spaces.list': async () => ({ spaces: await spaces().listWithCounts() }),
    'spaces.create': async ({ name, colour }) =>
      changed({ space: info(await spaces().create(colour === undefined ? { name } : { name, colour })) }),
    'spaces.rename': async ({ id, name }) => changed({ space: info(await spaces().rename(id, name)) }),
    'spaces.recolour': async ({ id, colour }) =>
      changed({ space: info(await spaces().recolour(id, colour)) }),
    'spaces.configure': async ({ id, patch }) => {
      const space = info(await spaces().configure(id, patch));
      // The space's windows show the settings as they now apply there.
      const { ctx: target } = await spaces().route(id);
      target.events.emit('settings.changed', {
        settings: target.settings.get(),
        apiKey: target.settings.apiKeyStatus(),
      });
      return changed({ space });
    },
    'spaces.delete': async ({ id }) => {
      await confirmNatively(ctx.host, 'spaces.delete');
      return changed({ trashed: trashed(await spaces().delete(id)) });
    },
    'spaces.trashed': async () => ({ spaces: (await spaces().trashed()).map(trashed) }),
    'spaces.restore': async ({ id }) => changed({ space: info(await spaces().restore(id)) }),
  };
}

// A space of a running backend, as the sync engine sees it: its memory (the guarded write path), its
// conversations folder (and the open store, told when sync changed files), its name and colour.
import path from 'node:path';
import { getAgent } from '../agent/index.js';
import { forgetEverywhere } from '../forget.js';
import type { KeyCipher } from '../key-vault.js';
import type { Spaces } from '../spaces/index.js';
import type { SpaceSync } from './engine.js';
import type { SyncSpace } from './space-io.js';

/**
 * What sync needs of a backend (createCore's Core fits it). Not the Core type itself: createCore builds
 * the SyncService, and importing its type back here would be a cycle.
 */
export interface SyncBackend {
  ctx: { dataDir: string };
  spaces: Spaces;
}

export async function syncSpaceOf(core: SyncBackend, spaceId: string): Promise<SyncSpace> {
  const { ctx } = await core.spaces.open(spaceId);
  const info = async () => {
    const s = await core.spaces.registry.get(spaceId);
    if (!s) throw new Error('That space does not exist.');
    return { id: s.id, name: s.name, colour: s.colour, created: s.created };
  };
  return {
    id: spaceId,
    memory: ctx.memory,
    conversationsDir: path.join(ctx.space?.dir ?? ctx.dataDir, 'conversations'),
    info,
    async setInfo(patch) {
      if (patch.name !== undefined) await core.spaces.rename(spaceId, patch.name);
      if (patch.colour !== undefined) await core.spaces.recolour(spaceId, patch.colour);
    },
    conversationsChanged: (ids) => getAgent(ctx).store.reloadFiles(ids),
    forget: (memoryPath) => forgetEverywhere(ctx, memoryPath, { tombstone: false }),
  };
}

/** Every change of a space (memory, by any actor, and conversations): what the scheduler batches. */
export async function spaceChanges(
  core: SyncBackend,
  spaceId: string,
): Promise<(listener: () => void) => () => void> {
  const { ctx } = await core.spaces.open(spaceId);
  return (listener) => {
    const offMemory = ctx.memory.onChange(listener);
    const offConversations = getAgent(ctx).store.onChange(listener);
    return () => {
      offMemory();
      offConversations();
    };
  };
}

/**
 * The sync of one space of this backend (its settings in DIR/sync/, its token through `cipher`). The engine
 * (git, merges) is loaded here, on a space's first sync, not with the backend: most starts never sync.
 */
export async function spaceSyncOf(
  core: SyncBackend,
  spaceId: string,
  cipher?: KeyCipher,
): Promise<SpaceSync> {
  const [{ SpaceSync }, space] = await Promise.all([import('./engine.js'), syncSpaceOf(core, spaceId)]);
  return new SpaceSync(core.ctx.dataDir, space, cipher);
}

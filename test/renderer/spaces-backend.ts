// The spaces channels for the renderer's scripted backend: an in-memory list with the backend's rules at
// the boundary (names unique without regard to case, Personal first and never deleted, a deleted space
// restorable by id, counts with every list, `spaces.changed` after each change).
import type { SpaceInfo, SpaceListed, TrashedSpaceInfo } from '../../shared/channels/spaces';
import { ContractError } from '../../shared/errors';
import { countsChanged } from '../../renderer/features/spaces/use-spaces';
import { resetSpacesStore } from '../../renderer/store/spaces';
import { reloadCurrentSpaceId } from '../../renderer/transport/current-space';
import type { ChatBackend } from './chat-backend';

/** The window as a new page finds it: in Personal, no list loaded. */
export function resetSpaces(): void {
  sessionStorage.clear();
  reloadCurrentSpaceId();
  resetSpacesStore();
  countsChanged();
}

export interface SpacesModel {
  spaces: SpaceListed[];
  trash: TrashedSpaceInfo[];
  /** Adds a space directly (setup), returning it. */
  seed(name: string, colour?: string, counts?: { conversations: number; memoryFiles: number }): SpaceListed;
}

const created = '2026-03-01T12:00:00.000Z';

export function addSpaces(backend: Pick<ChatBackend, 'impl' | 'emit'>): SpacesModel {
  let n = 0;
  const model: SpacesModel = {
    spaces: [
      {
        id: 'personal',
        name: 'Personal',
        colour: '#6b7280',
        created,
        settings: {},
        conversations: 0,
        memoryFiles: 0,
      },
    ],
    trash: [],
    seed(name, colour = '#2563eb', counts = { conversations: 0, memoryFiles: 0 }) {
      const space: SpaceListed = {
        id: `a${String(++n).padStart(11, '0')}`,
        name,
        colour,
        created,
        settings: {},
        ...counts,
      };
      model.spaces.push(space);
      return space;
    },
  };
  const info = (s: SpaceListed): SpaceInfo => ({
    id: s.id,
    name: s.name,
    colour: s.colour,
    created: s.created,
    settings: s.settings,
  });
  const find = (id: string): SpaceListed => {
    const s = model.spaces.find((x) => x.id === id);
    if (!s) throw new ContractError('not_found', 'That space does not exist.');
    return s;
  };
  const unique = (name: string, except?: string): string => {
    const clean = name.trim().replace(/\s+/g, ' ');
    if (!clean) throw new ContractError('invalid_request', 'A space needs a name.');
    if (model.spaces.some((s) => s.id !== except && s.name.toLowerCase() === clean.toLowerCase())) {
      throw new ContractError('conflict', `There is already a space named “${clean}”.`);
    }
    return clean;
  };
  const changed = (): void => backend.emit('spaces.changed', { spaces: model.spaces.map(info) });

  backend.impl['spaces.list'] = () => ({ spaces: model.spaces });
  backend.impl['spaces.trashed'] = () => ({ spaces: model.trash });
  backend.impl['spaces.create'] = (req) => {
    const space = model.seed(unique(req.name), req.colour ?? '#16a34a');
    changed();
    return { space: info(space) };
  };
  backend.impl['spaces.rename'] = (req) => {
    const space = find(req.id);
    space.name = unique(req.name, req.id);
    changed();
    return { space: info(space) };
  };
  backend.impl['spaces.recolour'] = (req) => {
    const space = find(req.id);
    space.colour = req.colour.toLowerCase();
    changed();
    return { space: info(space) };
  };
  // What went to the trash, counts and all, so a restore gives back the same space.
  const deleted = new Map<string, SpaceListed>();
  backend.impl['spaces.delete'] = (req) => {
    if (req.id === 'personal') throw new ContractError('invalid_request', 'Personal cannot be deleted.');
    const space = find(req.id);
    model.spaces = model.spaces.filter((s) => s.id !== req.id);
    const trashed = { ...info(space), deletedAt: created, keptUntil: '2026-03-31T12:00:00.000Z' };
    model.trash.push(trashed);
    deleted.set(space.id, space);
    changed();
    return { trashed };
  };
  backend.impl['spaces.restore'] = (req) => {
    const saved = deleted.get(req.id);
    if (!saved || !model.trash.some((t) => t.id === req.id)) {
      throw new ContractError('not_found', 'That space is not in the trash.');
    }
    model.trash = model.trash.filter((t) => t.id !== req.id);
    deleted.delete(req.id);
    model.spaces.push(saved);
    changed();
    return { space: info(saved) };
  };
  return model;
}

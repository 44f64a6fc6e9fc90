// The app menu's folder items, for the window they were chosen in: "Open Memory Folder" opens the memory
// folder of that window's space (the space belongs to the window, not to the app), through the space's
// own app.openDataFolder handler, so the folder is picked in one place for the menu and the Settings
// button alike. Plain Node (no electron import): tested with the real backend and a recording host.
import type { Handlers } from '../../shared/contract.js';
import { ContractError } from '../../shared/errors.js';
import { PERSONAL_SPACE_ID } from '../../shared/channels/spaces.js';
import type { MenuItem } from './menu.js';

export interface MenuFolderSpaces {
  /** core.spaces.route: the space's handlers, or not_found when it does not exist (any more). */
  route(id: string): Promise<{ handlers: Pick<Handlers, 'app.openDataFolder'> }>;
}

/**
 * Opens the folder of `action` for a window in space `spaceId`. A space deleted meanwhile (the window
 * goes to Personal as soon as it learns) opens Personal's. True when the file manager opened it.
 */
export async function openMenuFolder(
  action: NonNullable<MenuItem['action']>,
  spaceId: string,
  spaces: MenuFolderSpaces,
): Promise<boolean> {
  let space;
  try {
    space = await spaces.route(spaceId);
  } catch (error) {
    if (!(error instanceof ContractError && error.code === 'not_found')) throw error;
    space = await spaces.route(PERSONAL_SPACE_ID);
  }
  const which = action === 'open-memory-folder' ? 'memories' : 'data';
  const { opened } = await space.handlers['app.openDataFolder']({ which }, { clientId: 'menu' });
  return opened;
}

// The window's current space (issue 15): it belongs to the window, not to the backend, so each Electron
// window and each browser tab has its own, kept in sessionStorage across reloads (a new window starts in
// Personal). renderer/api.ts names it in the envelope of every call; renderer/store/spaces.ts changes it.
import { PERSONAL_SPACE_ID } from '../../shared/channels/spaces';

const KEY = 'mnemo.space';
const ID = /^[a-z0-9]{4,32}$/;

function stored(): string | null {
  try {
    const value = sessionStorage.getItem(KEY);
    return value !== null && ID.test(value) ? value : null;
  } catch {
    return null;
  }
}

let current: string = stored() ?? PERSONAL_SPACE_ID;

export function currentSpaceId(): string {
  return current;
}

export function setCurrentSpaceId(id: string): void {
  current = id;
  try {
    if (id === PERSONAL_SPACE_ID) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, id);
  } catch {
    // Storage disabled: the window keeps its space until it reloads.
  }
}

/** For tests: read sessionStorage again (as a new page would). */
export function reloadCurrentSpaceId(): void {
  current = stored() ?? PERSONAL_SPACE_ID;
}

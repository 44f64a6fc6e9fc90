// Which conversation a window opens after a reload (its own, in session storage) and which one a new
// window of the space is offered (the last of any window, in local storage).
import { PERSONAL_SPACE_ID } from '../../shared/channels/spaces';
import { currentSpaceId } from '../transport/current-space';

const CONVERSATION_KEY = 'mnemo.conversation';
/** The last conversation of any window, per space (Personal's key is the one from before spaces). */
const lastConversationKey = (): string => {
  const space = currentSpaceId();
  return space === PERSONAL_SPACE_ID ? 'mnemo.lastConversation' : `mnemo.lastConversation.${space}`;
};

/** The conversation `restore` opens: this window's last in the current space, else any window's. */
export function rememberedConversation(): string | null {
  try {
    return sessionStorage.getItem(CONVERSATION_KEY) ?? localStorage.getItem(lastConversationKey()) ?? null;
  } catch {
    return null;
  }
}

/**
 * This window's conversation, for a reload; `everyWindow`: also the one a new window opens, which a
 * temporary conversation never is (it belongs to the window that left it open).
 */
export function rememberConversation(id: string | null, everyWindow = true): void {
  try {
    if (id === null) {
      sessionStorage.removeItem(CONVERSATION_KEY);
    } else {
      sessionStorage.setItem(CONVERSATION_KEY, id);
      if (everyWindow) localStorage.setItem(lastConversationKey(), id);
    }
  } catch {
    // Storage disabled: the window just opens a new chat after a reload.
  }
}

/** A temporary conversation ended (or is not to be offered to new windows: `othersOnly`). */
export function forgetConversation(id: string, othersOnly = false): void {
  try {
    if (!othersOnly && sessionStorage.getItem(CONVERSATION_KEY) === id)
      sessionStorage.removeItem(CONVERSATION_KEY);
    if (localStorage.getItem(lastConversationKey()) === id) localStorage.removeItem(lastConversationKey());
  } catch {
    // Storage disabled: nothing was kept.
  }
}

// Start-up: subscribe the stores to the backend's events, tell the backend this window is ready (it
// flushes queued events then), load settings, conversations and the window's conversation (re-attaching
// to a run that was streaming before a reload). After a transport reconnect, catch up the same way.
import { PERSONAL_SPACE_ID } from '../shared/channels/spaces';
import type { Api } from '../shared/contract';
import { onReconnect } from './api';
import { errorMessage } from './lib/format';
import { startBridge } from './store/bridge';
import { useChat } from './store/chat';
import { useConversations } from './store/conversations';
import { useSettings } from './store/settings';
import { loadSpaces, startSpaces } from './store/spaces';
import { currentSpaceId } from './transport/current-space';

export async function boot(api: Api): Promise<() => void> {
  const stopBridge = startBridge(api);
  const offReconnect = onReconnect(() => {
    void loadSpaces();
    void useSettings.getState().load();
    void useConversations.getState().refresh();
    void useChat.getState().resync();
  });
  try {
    await api['app.ready']({});
  } catch (err) {
    useSettings.setState({ loadError: errorMessage(err) });
  }
  // The window's space first: everything loaded next is that space's. Personal always exists, so there
  // the list (with its counts, a folder listing of every space) loads after the first screen's data.
  const inPersonal = currentSpaceId() === PERSONAL_SPACE_ID;
  if (!inPersonal) await startSpaces();
  await useSettings.getState().load();
  await Promise.all([useConversations.getState().refresh(), useChat.getState().restore()]);
  if (inPersonal) void startSpaces();
  return () => {
    offReconnect();
    stopBridge();
  };
}

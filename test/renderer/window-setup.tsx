// Setup the renderer tests share: the window's stores back to their first state, a scripted chat backend
// whose memory is empty, the whole window booted on a backend (and stopped after each test), and the
// Memory tab with its toaster.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Api } from '../../shared/contract';
import { setApi } from '../../renderer/api';
import { App } from '../../renderer/app';
import { boot } from '../../renderer/boot';
import { Toaster } from '../../renderer/components/toaster';
import { MemoryPanel } from '../../renderer/features/memory';
import { useChat } from '../../renderer/store/chat';
import { useConversations } from '../../renderer/store/conversations';
import { bindMemoryEvents } from '../../renderer/store/memory';
import { useSettings } from '../../renderer/store/settings';
import { useToasts } from '../../renderer/store/toast';
import { useUi } from '../../renderer/store/ui';
import { createChatBackend, type ChatBackend } from './chat-backend';
import { installLayoutShim } from './layout-shim';

/** Settings, conversations, chat, toasts and the open dialogs as a window starts. */
export function resetWindowStores(): void {
  useSettings.setState({ view: null, info: null, loadError: null });
  useConversations.setState({
    list: [],
    loaded: false,
    query: '',
    results: null,
    searching: false,
    indexing: null,
    hidden: new Set(),
  });
  useChat.setState({ conversationId: null, items: [], runs: {}, activeRunId: null });
  useToasts.setState({ toasts: [] });
  useUi.setState({ settingsOpen: false, helpOpen: false });
}

/** The scripted chat backend with an empty memory (the window's first screen lists it). */
export function emptyMemoryChatBackend(): ChatBackend {
  const backend = createChatBackend();
  backend.impl['memory.list'] = () => ({ entries: [], totalBytes: 0 });
  backend.impl['memory.stale'] = () => ({ entries: [] });
  return backend;
}

/** The whole window on `api`, rendered and booted; resolves with what stops it. */
export async function startWindow(api: Api): Promise<() => void> {
  setApi(api);
  render(<App />);
  return act(() => boot(api));
}

/** The Memory tab and the toaster on `api`, its events bound: the region, and what unbinds them. */
export function renderMemoryPanel(api: Api): { panel: HTMLElement; unbind: () => void } {
  setApi(api);
  const unbind = bindMemoryEvents(api);
  render(
    <>
      <MemoryPanel />
      <Toaster />
    </>,
  );
  return { panel: screen.getByRole('region', { name: 'Memory' }), unbind };
}

/**
 * For a file of whole-window tests: the layout shim while it runs, and after each test the window stopped,
 * unmounted and its api unset. `start` boots the window on an api.
 */
export function windowTests(): { start(api: Api): Promise<void> } {
  let shutdown: () => void = () => undefined;
  let removeShim: () => void = () => undefined;
  beforeAll(() => {
    removeShim = installLayoutShim();
  });
  afterAll(() => removeShim());
  afterEach(() => {
    cleanup();
    shutdown();
    shutdown = () => undefined;
    setApi(null);
  });
  return {
    start: async (api) => {
      shutdown = await startWindow(api);
    },
  };
}

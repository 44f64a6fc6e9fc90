// Start-up and the space list: in Personal (which always exists) the first screen does not wait for the
// list, whose counts are a folder listing of every space; in another space it does, since a space deleted
// meanwhile must turn the window to Personal before anything of it is loaded.
import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Api } from '../../shared/contract';
import { getApi, setApi } from '../../renderer/api';
import { boot } from '../../renderer/boot';
import { useChat } from '../../renderer/store/chat';
import { useConversations } from '../../renderer/store/conversations';
import { resetMemoryStore } from '../../renderer/store/memory';
import { useSettings } from '../../renderer/store/settings';
import { resetSpacesStore, useSpaces } from '../../renderer/store/spaces';
import { reloadCurrentSpaceId } from '../../renderer/transport/current-space';
import { createSpaceWire } from './space-wire';

let shutdown: () => void = () => undefined;
let release: () => void = () => undefined;

/** The wire's api with spaces.list held until `release()`, as every store's calls see it. */
function holdList(): Api {
  const api = getApi();
  const held = new Promise<void>((resolve) => (release = resolve));
  const proxy = new Proxy(api, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'spaces.list' || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await held;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  setApi(proxy);
  return proxy;
}

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  reloadCurrentSpaceId();
  resetSpacesStore();
  resetMemoryStore();
  useConversations.setState({ list: [], loaded: false, query: '', results: null, hidden: new Set() });
  useChat.setState({ conversationId: null, items: [], runs: {}, activeRunId: null });
  useSettings.setState({ view: null, info: null, loadError: null });
  setApi(createSpaceWire({ personal: {}, work01: {} }).api);
});

afterEach(() => {
  release();
  shutdown();
  shutdown = () => undefined;
  setApi(null);
});

it('in Personal, loads the conversations and settings without waiting for the space list', async () => {
  shutdown = await boot(holdList());
  expect(useConversations.getState().loaded).toBe(true);
  expect(useSettings.getState().view).not.toBeNull();
  expect(useSpaces.getState().loaded).toBe(false);
  release();
  await waitFor(() => expect(useSpaces.getState().loaded).toBe(true));
  expect(useSpaces.getState().list.map((s) => s.id)).toContain('work01');
});

it('in another space, waits for the list before loading anything of that space', async () => {
  sessionStorage.setItem('mnemo.space', 'work01');
  reloadCurrentSpaceId();
  let booted = false;
  const booting = boot(holdList()).then((stop) => {
    booted = true;
    shutdown = stop;
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(booted).toBe(false);
  expect(useConversations.getState().loaded).toBe(false);
  release();
  await booting;
  expect(useConversations.getState().loaded).toBe(true);
});

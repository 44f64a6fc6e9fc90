// The settings slice: the settings view from the backend (never the API key itself, only whether one is
// set and where it comes from) and the host's info (data folder, browser or Electron).
import { create } from 'zustand';
import type { AppInfo } from '../../shared/channels/app';
import type { Settings, SettingsView } from '../../shared/channels/settings';
import { getApi } from '../api';
import { errorMessage } from '../lib/format';
import { toast } from './toast';

interface SettingsState {
  view: SettingsView | null;
  info: AppInfo | null;
  loadError: string | null;
  load(): Promise<void>;
  setView(view: SettingsView): void;
  update(patch: Partial<Settings>): Promise<boolean>;
  setApiKey(apiKey: string | null): Promise<boolean>;
  reset(): Promise<boolean>;
  openDataFolder(): Promise<void>;
  /** The current space's recall switch (null until read). */
  recall: boolean | null;
  loadRecall(): Promise<void>;
  setRecall(on: boolean): Promise<void>;
}

export const useSettings = create<SettingsState>()((set, get) => ({
  view: null,
  info: null,
  loadError: null,
  recall: null,

  async loadRecall() {
    try {
      set({ recall: (await getApi()['conversations.recall']({})).on });
    } catch {
      // Shown as on and disabled until it can be read.
    }
  },

  async setRecall(on) {
    const before = get().recall;
    set({ recall: on });
    try {
      set({ recall: (await getApi()['conversations.recall']({ on })).on });
    } catch (err) {
      set({ recall: before });
      toast(errorMessage(err), { tone: 'error' });
    }
  },

  async load() {
    try {
      const [view, info] = await Promise.all([getApi()['settings.get']({}), getApi()['app.info']({})]);
      set({ view, info, loadError: null });
    } catch (err) {
      set({ loadError: errorMessage(err) });
    }
  },

  setView(view) {
    set({ view });
  },

  async update(patch) {
    // Optimistic: the control shows the choice at once; the backend's answer (or a refusal) settles it.
    const before = get().view;
    if (before) set({ view: { ...before, settings: { ...before.settings, ...patch } } });
    try {
      set({ view: await getApi()['settings.set']({ patch }) });
      return true;
    } catch (err) {
      if (before) set({ view: before });
      toast(errorMessage(err), { tone: 'error' });
      return false;
    }
  },

  async setApiKey(apiKey) {
    try {
      set({ view: await getApi()['settings.setApiKey']({ apiKey }) });
      return true;
    } catch (err) {
      toast(errorMessage(err), { tone: 'error' });
      return false;
    }
  },

  async reset() {
    try {
      set({ view: await getApi()['settings.reset']({}) });
      return true;
    } catch (err) {
      toast(errorMessage(err), { tone: 'error' });
      return false;
    }
  },

  async openDataFolder() {
    try {
      const res = await getApi()['app.openDataFolder']({ which: 'data' });
      if (!res.opened) toast('This window cannot open folders: the path is shown above.', { tone: 'info' });
    } catch (err) {
      toast(errorMessage(err), { tone: 'error' });
    }
  },
}));

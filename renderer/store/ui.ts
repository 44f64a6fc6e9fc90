// Window-level UI state: theme (applied from settings), which dialogs are open, the side panel, pane
// sizes (persisted in localStorage) and focus requests that shortcuts send to components.
import { create } from 'zustand';

export type PanelTab = 'memory' | 'activity' | 'context';
export type ThemeSetting = 'system' | 'light' | 'dark';

const SIZES_KEY = 'mnemo.layout.v1';

interface Sizes {
  sidebar: number;
  panel: number;
}

export const defaultSizes: Sizes = { sidebar: 260, panel: 380 };
export const sizeLimits = { sidebar: [180, 420], panel: [280, 720] } as const;

function loadSizes(): Sizes {
  try {
    const raw = localStorage.getItem(SIZES_KEY);
    if (!raw) return defaultSizes;
    const parsed = JSON.parse(raw) as Partial<Sizes & { panelOpen: boolean; sidebarOpen: boolean }>;
    return {
      sidebar: clamp(Number(parsed.sidebar) || defaultSizes.sidebar, ...sizeLimits.sidebar),
      panel: clamp(Number(parsed.panel) || defaultSizes.panel, ...sizeLimits.panel),
    };
  } catch {
    return defaultSizes;
  }
}

function loadFlag(key: string, fallback: boolean): boolean {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v === '1';
  } catch {
    return fallback;
  }
}

export function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

interface UiState {
  sizes: Sizes;
  panelOpen: boolean;
  sidebarOpen: boolean;
  panelTab: PanelTab;
  settingsOpen: boolean;
  helpOpen: boolean;
  /** Increments each time a shortcut asks for the message box to take focus. */
  focusComposer: number;
  /** Increments each time "search memory" is requested: the Memory tab focuses its search box. */
  focusMemorySearch: number;
  /** Increments each time "search conversations" is requested. */
  focusConversationSearch: number;
  /** Increments each time the space switcher is asked to open (its shortcut). */
  focusSpaceSwitcher: number;
  resolvedTheme: 'light' | 'dark';
  setSize(pane: keyof Sizes, px: number): void;
  togglePanel(open?: boolean): void;
  toggleSidebar(open?: boolean): void;
  setPanelTab(tab: PanelTab): void;
  openSettings(open: boolean): void;
  openHelp(open: boolean): void;
  requestComposerFocus(): void;
  requestMemorySearch(): void;
  requestConversationSearch(): void;
  requestSpaceSwitcher(): void;
  setResolvedTheme(theme: 'light' | 'dark'): void;
}

export const useUi = create<UiState>()((set, get) => ({
  sizes: loadSizes(),
  panelOpen: loadFlag('mnemo.panelOpen', true),
  sidebarOpen: loadFlag('mnemo.sidebarOpen', true),
  panelTab: 'memory',
  settingsOpen: false,
  helpOpen: false,
  focusComposer: 0,
  focusMemorySearch: 0,
  focusConversationSearch: 0,
  focusSpaceSwitcher: 0,
  resolvedTheme: 'light',
  setSize(pane, px) {
    const sizes = { ...get().sizes, [pane]: clamp(Math.round(px), sizeLimits[pane][0], sizeLimits[pane][1]) };
    set({ sizes });
    try {
      localStorage.setItem(SIZES_KEY, JSON.stringify(sizes));
    } catch {
      // Storage can be full or disabled; sizes then last for this session only.
    }
  },
  togglePanel(open) {
    const next = open ?? !get().panelOpen;
    set({ panelOpen: next });
    persistFlag('mnemo.panelOpen', next);
  },
  toggleSidebar(open) {
    const next = open ?? !get().sidebarOpen;
    set({ sidebarOpen: next });
    persistFlag('mnemo.sidebarOpen', next);
  },
  setPanelTab(tab) {
    set({ panelTab: tab });
  },
  openSettings(open) {
    set({ settingsOpen: open });
  },
  openHelp(open) {
    set({ helpOpen: open });
  },
  requestComposerFocus() {
    set((s) => ({ focusComposer: s.focusComposer + 1 }));
  },
  requestMemorySearch() {
    set((s) => ({ panelOpen: true, panelTab: 'memory', focusMemorySearch: s.focusMemorySearch + 1 }));
    persistFlag('mnemo.panelOpen', true);
  },
  requestConversationSearch() {
    set((s) => ({ sidebarOpen: true, focusConversationSearch: s.focusConversationSearch + 1 }));
  },
  requestSpaceSwitcher() {
    set((s) => ({ sidebarOpen: true, focusSpaceSwitcher: s.focusSpaceSwitcher + 1 }));
  },
  setResolvedTheme(theme) {
    set({ resolvedTheme: theme });
  },
}));

function persistFlag(key: string, value: boolean): void {
  try {
    localStorage.setItem(key, value ? '1' : '0');
  } catch {
    // See setSize.
  }
}

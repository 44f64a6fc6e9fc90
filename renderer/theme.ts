// Applies the theme setting (system | light | dark) to <html data-theme>, following the OS while the
// setting is "system". The last applied theme is remembered so the next start paints in it at once.
import { useEffect } from 'react';
import { useSettings } from './store/settings';
import { useUi } from './store/ui';

const KEY = 'mnemo.theme';

function systemDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

export function applyTheme(theme: 'light' | 'dark'): void {
  document.documentElement.dataset.theme = theme;
  useUi.getState().setResolvedTheme(theme);
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Only the first paint of the next start is affected.
  }
}

/** Before React renders: paint in the last theme (or the system's) to avoid a flash. */
export function applyInitialTheme(): void {
  let saved: string | null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  applyTheme(saved === 'dark' || saved === 'light' ? saved : systemDark() ? 'dark' : 'light');
}

export function useThemeSetting(): void {
  const setting = useSettings((s) => s.view?.settings.theme);
  useEffect(() => {
    if (!setting) return;
    if (setting !== 'system') {
      applyTheme(setting);
      return;
    }
    applyTheme(systemDark() ? 'dark' : 'light');
    if (typeof matchMedia !== 'function') return;
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const onChange = (): void => applyTheme(mq.matches ? 'dark' : 'light');
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, [setting]);
}

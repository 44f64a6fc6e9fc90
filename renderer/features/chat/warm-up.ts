// The first message of a session mounts the transcript (TanStack Virtual) and adds a sidebar row (a date
// formatter): run cold, that code cost a ~100 ms long task right after Send (bench/ui, issue 5 point 8).
// Running each once while the app is idle after start-up pays the compile and locale-data costs early.
import {
  Virtualizer,
  elementScroll,
  observeElementOffset,
  observeElementRect,
} from '@tanstack/react-virtual';
import { formatTime } from '../../lib/format';

/** Drives a throwaway virtualizer over a hidden, detached-from-layout list through mount, measure, unmount. */
function warmUpVirtualizer(): void {
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.style.cssText =
    'position:fixed;left:-10000px;top:0;width:400px;height:200px;overflow:auto;visibility:hidden;contain:strict';
  const row = document.createElement('div');
  row.dataset.index = '0';
  row.style.height = '120px';
  host.append(row);
  document.body.append(host);
  const virtualizer = new Virtualizer<HTMLDivElement, HTMLDivElement>({
    count: 3,
    getScrollElement: () => host,
    estimateSize: () => 100,
    getItemKey: (i) => i,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    overscan: 3,
    paddingStart: 24,
    paddingEnd: 48,
    initialRect: { width: 400, height: 200 },
  });
  const unmount = virtualizer._didMount();
  try {
    virtualizer._willUpdate();
    virtualizer.getVirtualItems();
    virtualizer.measureElement(row);
    virtualizer.getTotalSize();
    virtualizer.scrollToIndex(2);
  } finally {
    unmount();
    host.remove();
  }
}

const STEPS: readonly (() => void)[] = [
  warmUpVirtualizer,
  () => {
    formatTime(new Date().toISOString());
    formatTime('2020-01-01T00:00:00Z');
  },
];

/** Each step in its own idle callback, queued before (so finished before) the Markdown warm-up's marker. */
export function warmUpChat(): void {
  for (const step of STEPS) {
    const run = (): void => {
      try {
        step();
      } catch {
        // Only a warm-up: the real code path reports its own errors.
      }
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 200);
  }
}

// The calls the spaces feature makes in a space other than the window's (renderer/api.ts getApiIn): the
// window's own calls all go through getApi, bound to its current space.
import type { ResOut } from '../../shared/contract';
import { getApiIn } from '../api';
import { currentSpaceId } from '../transport/current-space';

const warmed = new Set<string>();

/**
 * Opens a space in the backend ahead of a switch (the switcher calls it once a space stays highlighted):
 * the first call in a space opens its memory and conversations, which is most of a first switch's time.
 * Once per space per window; errors are the switch's to report, not this.
 */
export function prewarmSpace(id: string): void {
  if (id === currentSpaceId() || warmed.has(id)) return;
  warmed.add(id);
  const api = getApiIn(id);
  api['memory.stale']({}).catch(() => warmed.delete(id));
}

/** The memory export of space `id` (a zip named after it), whichever space the window is in. */
export function exportSpaceMemory(id: string): Promise<ResOut<'memory.export'>> {
  return getApiIn(id)['memory.export']({ includeJournal: false });
}

/** For tests. */
export function forgetWarmed(): void {
  warmed.clear();
}

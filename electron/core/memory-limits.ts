// The memory limits the user controls in settings, as memory/ expects them.
import type { MemoryLimits } from '../../memory/types.js';
import type { Settings } from '../../shared/channels/settings.js';

export function memoryLimitsOf(
  settings: Settings,
): Pick<MemoryLimits, 'fileCapBytes' | 'quotaBytes' | 'staleAfterDays'> {
  return {
    fileCapBytes: settings.memoryFileCapBytes,
    quotaBytes: settings.memoryQuotaBytes,
    staleAfterDays: settings.staleAfterDays,
  };
}

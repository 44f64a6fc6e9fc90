// The words for what a sync erased because another device forgot it permanently (`sync.forgotten`): each
// file by its memory path, with the device that forgot it. One sync, one message.
import type { SyncForgotten } from '../../shared/channels/sync';

/** Paths named in full; past this many, the rest are counted (a toast, not a report). */
const NAMED = 5;

const unique = (items: readonly string[]): string[] => [...new Set(items)];

function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

/**
 * "/memories/pets.md was forgotten permanently on Laptop; it is erased here too." Several devices: each
 * path says its own. `spaceName`: the sync ran in a space the window is not showing.
 */
export function forgottenMessage(
  forgotten: readonly SyncForgotten['forgotten'][number][],
  spaceName?: string,
): string {
  const devices = unique(forgotten.map((f) => f.device));
  const several = devices.length > 1;
  const named = forgotten.slice(0, NAMED).map((f) => (several ? `${f.path} (on ${f.device})` : f.path));
  const rest = forgotten.slice(NAMED);
  if (rest.length > 0) {
    const on = several ? ` (on ${listOf(unique(rest.map((f) => f.device)))})` : '';
    named.push(`${rest.length} more ${rest.length === 1 ? 'file' : 'files'}${on}`);
  }
  const one = forgotten.length === 1;
  const where = spaceName !== undefined ? `In ${spaceName}, ` : '';
  return `${where}${listOf(named)} ${one ? 'was' : 'were'} forgotten permanently${several ? '' : ` on ${devices[0]}`}; ${one ? 'it is' : 'they are'} erased here too.`;
}

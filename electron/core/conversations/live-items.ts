// A conversation's items as a window opening it mid-run is given them: the stored entries a run's seq
// covers (runs.ts RunRegistry.live), shown as far as the run's events have shown them, so the window can
// attach after that seq and apply each later event once, with nothing to skip.
import type { TranscriptItem } from '../../../shared/channels/conversations.js';
import { applyEvents } from '../../../shared/projection/project.js';
import type { LiveRun } from '../runs.js';
import type { ConversationState } from './state.js';

/**
 * `items`: a page reaching the end of the entries before `live.entries`. A reply's record holds all its
 * tool calls, but the run announces each (tool.call) only as it runs it: the calls not announced yet are
 * left for their event. What the records do not hold yet (the reply streaming, results before their
 * message) is applied from the run's pending events.
 */
export function asShown(state: ConversationState, items: TranscriptItem[], live: LiveRun): TranscriptItem[] {
  const announced = new Set<string>();
  for (const e of live.events) if (e.type === 'tool.call') announced.add(e.toolUseId);
  const unannounced = new Set<string>();
  for (const entry of state.entries.slice(live.since, live.entries)) {
    if (entry.type !== 'msg' || entry.record.kind !== 'assistant') continue;
    for (const b of entry.record.content) {
      const id = (b as { type: string; id?: string }).id;
      if (b.type === 'tool_use' && id !== undefined && !announced.has(id)) unannounced.add(id);
    }
  }
  const shown = unannounced.size
    ? items.filter((i) => !(i.kind === 'tool' && unannounced.has(i.toolUseId)))
    : items;
  return applyEvents(shown, live.pending) as TranscriptItem[];
}

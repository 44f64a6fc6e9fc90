// Which view items a stored entry makes, and which earlier ones it changes or places itself under: the
// projection's rules (project.ts), said here once so the backend's page index (which cuts a transcript into
// pages no item straddles) follows them instead of repeating them. A new card that changes an earlier
// item is a case here and in project.ts's addCard, both in this folder.
import type { CardFact } from './cards.js';
import { noteId, reviewItemId, toolItemId } from './items.js';
import type { StoredEntry } from './project.js';

type Block = { type: string; id?: string; tool_use_id?: string };

/** The ids of the view items a stored card makes (none for one that only changes an earlier item). */
export function cardMakes(recordId: string, card: CardFact | undefined): string[] {
  if (card?.kind === 'reviewed' || card?.kind === 'retried') return [];
  return [card?.kind === 'review' ? reviewItemId(card.reviewId) : recordId];
}

/** The ids of earlier view items a stored card changes or sits under. */
export function cardChanges(card: CardFact | undefined): string[] {
  if (card?.kind === 'reviewed') return [reviewItemId(card.reviewId)];
  if (card?.kind === 'retried') return [card.errorId];
  if (card?.kind === 'review') return [toolItemId(card.toolUseId)];
  return [];
}

/** The ids of the view items an entry adds. */
export function entryMakes(entry: StoredEntry): string[] {
  if (entry.type === 'event') return cardMakes(entry.record.id, entry.record.card);
  const m = entry.record;
  const blocks = m.content as readonly Block[];
  switch (m.kind) {
    case 'user':
      return [m.id];
    case 'assistant': {
      const ids = [m.id];
      for (const b of blocks) if (b.type === 'tool_use' && b.id) ids.push(toolItemId(b.id));
      return ids;
    }
    case 'tool_results':
      return blocks.some((b) => b.type === 'text') ? [noteId(m.id)] : [];
    default:
      return [];
  }
}

/** The ids of earlier view items an entry changes or places itself under. */
export function entryChanges(entry: StoredEntry): string[] {
  if (entry.type === 'event') return cardChanges(entry.record.card);
  const refs: string[] = [];
  if (entry.record.kind === 'tool_results')
    for (const b of entry.record.content as readonly Block[])
      if (b.type === 'tool_result' && b.tool_use_id) refs.push(toolItemId(b.tool_use_id));
  return refs;
}

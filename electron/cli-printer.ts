// What the terminal prints of a run: the shared projection's items (shared/projection, the same the chat
// shows), one line per tool call, refusal and card as it appears (a card's line is the projection's, beside
// its label: shared/projection/cards.ts), and the last answer's text at the end.
import type { RunEvent } from '../shared/channels/chat.js';
import { cardTerminalLine } from '../shared/projection/cards.js';
import type { ViewItem } from '../shared/projection/items.js';
import { applyEvents } from '../shared/projection/project.js';
import { recallCard } from '../shared/projection/recall.js';

/** A tool call's input in brief: the fields that say what it did, not the contents. */
export function brief(input: unknown): string {
  if (typeof input !== 'object' || input === null) return JSON.stringify(input);
  const i = input as Record<string, unknown>;
  const keys = ['command', 'path', 'old_path', 'new_path', 'query'].filter((k) => i[k] !== undefined);
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, i[k]])));
}

export class RunPrinter {
  private items: ViewItem[] = [];
  private readonly turns = new Map<string, number>();
  private readonly printed = new Set<string>();

  constructor(private readonly print: (line: string) => void) {}

  /** Applies one event and prints what it made appear. */
  apply(e: RunEvent): void {
    if (e.type === 'tool.call') this.turns.set(e.toolUseId, e.turn);
    this.items = applyEvents(this.items, [e]);
    for (const item of this.items) {
      if (item.kind === 'tool') {
        const turn = this.turns.get(item.toolUseId) ?? '?';
        if (this.once(item.id)) this.print(`[turn ${turn}] called ${item.name} ${brief(item.input)}`);
        if (item.isError && this.once(`${item.id}:result`)) {
          this.print(`[turn ${turn}] ${item.name} refused: ${(item.result ?? '').split('\n')[0]}`);
        }
        // A search of past conversations: the card's label and the conversations it found.
        const recall =
          item.result !== null && !item.isError
            ? recallCard(item.name, item.input, item.result, false)
            : null;
        if (recall && this.once(`${item.id}:recall`)) {
          const titles = [...new Set(recall.hits.map((h) => `“${h.title || 'Untitled'}”`))];
          this.print(`[recall] ${recall.label}${titles.length ? `: ${titles.join(', ')}` : ''}`);
        }
      } else if (item.kind === 'event' && this.once(item.id)) {
        this.print(cardTerminalLine(item));
      }
    }
  }

  /** The last answer's text (what "Final answer:" prints). */
  answer(): string {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i]!;
      if (item.kind === 'assistant') return item.text;
    }
    return '';
  }

  private once(key: string): boolean {
    if (this.printed.has(key)) return false;
    this.printed.add(key);
    return true;
  }
}

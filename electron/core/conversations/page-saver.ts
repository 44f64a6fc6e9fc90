// Writes the page sidecars (page-file.ts), off the streaming path: a sidecar is built when the summary
// book vouches for a conversation's state as its file holds it (summary-book.ts, batched after changes
// and at close), so it describes exactly that file, and written one at a time behind each other. A
// conversation deleted, moved or redacted has its sidecar removed, behind any write still queued for it.
import { type PageFile, removePageFile, removePageLeftovers, writePageFile } from './page-file.js';
import { buildPageFile } from './page-marks.js';
import type { ConversationState } from './state.js';
import type { FileStamp } from './summary-cache.js';

const keyOf = (s: FileStamp): string => `${s.size}:${s.ino}:${s.mtimeMs}`;

export class PageSaver {
  /** The stat each conversation's sidecar on disk describes (as far as this process wrote it). */
  private readonly saved = new Map<string, string>();
  private readonly pending = new Map<string, PageFile>();
  /** Bumped by each drop: a write already under way when its conversation was dropped is not noted. */
  private readonly drops = new Map<string, number>();
  private queue: Promise<void> = Promise.resolve();
  private swept = false;

  constructor(
    private readonly dir: string,
    private readonly warn?: (error: unknown) => void,
    /** What the context meter needs of the state, saved with its pages (null: nothing to save). */
    private readonly context?: (state: ConversationState) => unknown,
  ) {}

  /** The state is what the file with `stamp` holds: its sidecar is written soon, if it changed. */
  vouched(id: string, state: ConversationState, stamp: FileStamp): void {
    const key = keyOf(stamp);
    if (this.saved.get(id) === key || (this.pending.get(id) && keyOf(this.pending.get(id)!.stamp) === key))
      return;
    // Built now, in the same tick as the book's check, while the state is still exactly the file's.
    const file = buildPageFile(state, stamp);
    if (!file) return;
    const context = this.context?.(state);
    if (context) file.context = context;
    const first = !this.pending.has(id);
    this.pending.set(id, file);
    if (first) this.enqueue(() => this.write(id));
  }

  /** Its sidecar on disk may be another one than this process wrote: the next vouch writes it. */
  unsaved(id: string): void {
    this.saved.delete(id);
  }

  /** Its sidecar is removed (after anything queued for it); nothing is written for it until vouched again. */
  drop(id: string): Promise<void> {
    this.pending.delete(id);
    this.saved.delete(id);
    this.drops.set(id, (this.drops.get(id) ?? 0) + 1);
    return this.enqueue(() => removePageFile(this.dir, id));
  }

  /** Everything queued is on disk. */
  async flushed(): Promise<void> {
    await this.queue;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step);
    this.queue = next.catch((error: unknown) => this.warn?.(error));
    return this.queue;
  }

  private async write(id: string): Promise<void> {
    const file = this.pending.get(id);
    if (!file) return; // dropped meanwhile
    this.pending.delete(id);
    const drops = this.drops.get(id);
    if (!this.swept) {
      this.swept = true;
      await removePageLeftovers(this.dir);
    }
    await writePageFile(this.dir, id, file);
    if (this.drops.get(id) === drops) this.saved.set(id, keyOf(file.stamp));
  }
}

// Cooperative time slicing for the recall index's long jobs (the first build, loading and saving its
// shards): each gives the event loop a turn every few milliseconds, so the window's requests and a
// streaming reply never wait behind them. A turn is a setImmediate, not a timer: under load a timer's
// minimum delay would stretch a 30-second build many times over.

/** How long a job runs before it lets others in. */
export const SLICE_MS = 8;

export class Slicer {
  private start = performance.now();

  constructor(private readonly budgetMs = SLICE_MS) {}

  /** True when this slice has run its time: then `await pause()`. Cheap enough to ask per document. */
  due(): boolean {
    return performance.now() - this.start >= this.budgetMs;
  }

  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.restart();
  }

  /** After awaiting something else (a file read or write): the loop had its turn then. */
  restart(): void {
    this.start = performance.now();
  }
}

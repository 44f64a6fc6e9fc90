// The index builds of opened spaces, one at a time and only once no space has been opened for a while: a
// build reads every memory file of its space, and one running during the next switch (a person going
// through spaces one after another) slowed that switch several times over.
type Job = () => Promise<unknown>;

export class IdleWarmer {
  private readonly queue = new Set<Job>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastBusy = -Infinity;
  private stopped = false;

  constructor(
    private readonly idleMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The disk is wanted now (a space is opening): the builds wait until it has been quiet for idleMs. */
  busy(): void {
    this.lastBusy = this.now();
    this.schedule();
  }

  /** Runs `job` when idle; the function returned takes it off the queue if it has not started. */
  add(job: Job): () => void {
    this.queue.add(job);
    this.schedule();
    return () => this.queue.delete(job);
  }

  stop(): void {
    this.stopped = true;
    this.queue.clear();
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.drain(), this.idleMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const job of this.queue) {
        if (this.stopped || this.now() - this.lastBusy < this.idleMs) break;
        this.queue.delete(job);
        await job().catch(() => undefined);
      }
    } finally {
      this.running = false;
      // Left over (busy again meanwhile, and its timer may have fired while this ran): try again later.
      if (this.queue.size > 0) this.schedule();
    }
  }
}

// "Ask me" mode: each memory write waits here for the user's decision (chat.review). A review ends with the
// user's decision, or as cancelled when the run is aborted; either way the loop gets an answer.
import { randomUUID } from 'node:crypto';
import { ContractError } from '../../../shared/errors.js';

export type ReviewDecision =
  | { decision: 'approve' }
  | { decision: 'edit'; content: string }
  | { decision: 'reject'; reason?: string | undefined }
  | { decision: 'cancelled' };

interface Pending {
  runId: string;
  resolve: (decision: ReviewDecision) => void;
}

export class ReviewBroker {
  private readonly pending = new Map<string, Pending>();

  /** Opens a review; `announce` emits the review.request event with the id. */
  request(runId: string, signal: AbortSignal, announce: (reviewId: string) => void): Promise<ReviewDecision> {
    const reviewId = randomUUID();
    return new Promise<ReviewDecision>((resolve) => {
      if (signal.aborted) return resolve({ decision: 'cancelled' });
      const onAbort = (): void => {
        this.pending.delete(reviewId);
        resolve({ decision: 'cancelled' });
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(reviewId, {
        runId,
        resolve: (decision) => {
          signal.removeEventListener('abort', onAbort);
          this.pending.delete(reviewId);
          resolve(decision);
        },
      });
      announce(reviewId);
    });
  }

  resolve(reviewId: string, decision: Exclude<ReviewDecision, { decision: 'cancelled' }>): void {
    const pending = this.pending.get(reviewId);
    if (!pending) {
      throw new ContractError('not_found', 'That memory change is no longer waiting for review.');
    }
    pending.resolve(decision);
  }

  has(reviewId: string): boolean {
    return this.pending.has(reviewId);
  }
}

// One streamed request: text deltas go out as they arrive, and the outcome says how it ended. A stream
// that sends nothing for `stallMs` (before the first byte or between events) is aborted as stalled. On any
// non-normal end the partial message the SDK assembled so far is returned, so the loop can keep the text.
import type Anthropic from '@anthropic-ai/sdk';
import type {
  BetaMessage,
  BetaMessageStreamParams,
} from '@anthropic-ai/sdk/resources/beta/messages/messages.js';

export type TurnParams = BetaMessageStreamParams;

export type TurnOutcome =
  | { kind: 'ok'; message: BetaMessage }
  | { kind: 'aborted'; partial: BetaMessage | undefined }
  | { kind: 'stalled'; partial: BetaMessage | undefined }
  | { kind: 'error'; error: unknown; partial: BetaMessage | undefined };

export interface TurnOptions {
  signal: AbortSignal;
  stallMs: number;
  onText?: (delta: string) => void;
  /** Called when a compaction block arrives (native compaction). */
  onCompaction?: (content: string | null) => void;
}

export async function streamTurn(
  client: Anthropic,
  params: TurnParams,
  options: TurnOptions,
): Promise<TurnOutcome> {
  if (options.signal.aborted) return { kind: 'aborted', partial: undefined };
  // The stream's own abort() ends the request (the SDK gives every stream its controller): no second
  // controller and signal per turn.
  const stream = client.beta.messages.stream(params);
  let stalled = false;
  const onAbort = (): void => stream.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    stalled = true;
    stream.abort();
  }, options.stallMs);
  // Every event restarts the stall timer (refresh: no new timer per event).
  const arm = (): void => void timer.refresh();
  stream.on('streamEvent', arm);
  if (options.onText) stream.on('text', options.onText);
  if (options.onCompaction) stream.on('compaction', options.onCompaction);
  // The stream re-emits failures as 'error' events; finalMessage() below is where we handle them.
  stream.on('error', () => undefined);
  try {
    const message = await stream.finalMessage();
    return { kind: 'ok', message };
  } catch (error) {
    const partial = stream.currentMessage;
    if (stalled) return { kind: 'stalled', partial };
    if (options.signal.aborted) return { kind: 'aborted', partial };
    return { kind: 'error', error, partial };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
  }
}

// One streamed request: text deltas go out as they arrive, and the outcome says how it ended. A stream
// that sends nothing for `stallMs` (before the first byte or between events) is aborted as stalled. On any
// non-normal end the partial message the SDK assembled so far is returned, so the loop can keep the text.
import type Anthropic from '@anthropic-ai/sdk';
import type {
  BetaMessage,
  BetaMessageStreamParams,
} from '@anthropic-ai/sdk/resources/beta/messages/messages.js';

export type TurnParams = BetaMessageStreamParams;

const STALL_CHECKS = 4;

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

// A run's signal gets one 'abort' listener for all its turns, which aborts the streams in flight: adding and
// removing an EventTarget listener for each turn costs about 10 µs with cold caches (bench/loop).
const following = new WeakMap<AbortSignal, Set<{ abort(): void }>>();

function inFlight(signal: AbortSignal): Set<{ abort(): void }> {
  let streams = following.get(signal);
  if (!streams) {
    const set = new Set<{ abort(): void }>();
    signal.addEventListener('abort', () => set.forEach((s) => s.abort()), { once: true });
    following.set(signal, set);
    streams = set;
  }
  return streams;
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
  const streams = inFlight(options.signal);
  streams.add(stream);
  // Events are only counted (a turn has several, and re-arming a timer for each costs about a microsecond
  // with cold caches); a check every quarter of stallMs aborts once four checks in a row saw none, so a
  // stall is caught between stallMs and 1.25 × stallMs after the last event, and a gap shorter than stallMs
  // never is.
  let events = 0;
  let seen = 0;
  let quiet = 0;
  const timer = setInterval(() => {
    if (events !== seen) {
      seen = events;
      quiet = 0;
    } else if (++quiet >= STALL_CHECKS) {
      clearInterval(timer);
      stalled = true;
      stream.abort();
    }
  }, options.stallMs / STALL_CHECKS);
  stream.on('streamEvent', () => void events++);
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
    clearInterval(timer);
    streams.delete(stream);
  }
}

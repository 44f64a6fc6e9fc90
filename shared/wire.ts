// The wire format shared by the message-based transports (WebSocket and the in-memory pair). Electron IPC
// carries the same `Outcome` objects through ipcMain.handle instead of `result` messages.
//
// Invariants: every `invoke` gets exactly one `result` with the same id; ids are chosen by the client and
// only need to be unique among its pending calls; `event` messages are only sent to a client after it has
// said `ready` (earlier ones are queued on the server and flushed in order); every message is one JSON text
// of at most MAX_MESSAGE_BYTES (UTF-8).
import { z } from 'zod';
import type { EventMeta, EventName, EventPayload } from './contract.js';
import { contractErrorSchema, type ContractErrorData } from './errors.js';

/** The cap on one message in either direction (security.md: message sizes are capped). */
export const MAX_MESSAGE_BYTES = 5 * 1024 * 1024;

const callId = z.number().int().nonnegative();

export const clientMessage = z.discriminatedUnion('t', [
  // `channel` is checked by the server's dispatcher (unknown_channel), not here, so every transport
  // refuses a bad channel the same way.
  // `space` names the space the call runs in (shared/contract.ts, "Spaces on the wire"); checked by the
  // dispatcher too, so every transport refuses a bad space the same way.
  z.object({
    t: z.literal('invoke'),
    id: callId,
    channel: z.unknown(),
    payload: z.unknown(),
    space: z.unknown().optional(),
  }),
  z.object({ t: z.literal('ready') }),
]);
export type ClientMessage = z.infer<typeof clientMessage>;

/** The result of one call, as every transport carries it. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: ContractErrorData };

export const outcomeSchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: contractErrorSchema }),
]);

export const serverMessage = z.union([
  z.object({ t: z.literal('result'), id: callId, ok: z.literal(true), value: z.unknown() }),
  z.object({ t: z.literal('result'), id: callId, ok: z.literal(false), error: contractErrorSchema }),
  z.object({ t: z.literal('event'), name: z.string(), payload: z.unknown(), space: z.string().optional() }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;

export class WireSizeError extends Error {
  constructor(readonly bytes: number) {
    super(
      `The message is too large (${formatMegabytes(bytes)}; at most ${MAX_MESSAGE_BYTES / (1024 * 1024)} MB).`,
    );
    this.name = 'WireSizeError';
  }
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}

/** UTF-8 length without allocating (TextEncoder would copy the whole string). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Serialises a message; throws WireSizeError above the cap. */
export function encodeMessage(message: ClientMessage | ServerMessage): string {
  const text = JSON.stringify(message);
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so short texts need no counting.
  if (text.length * 3 > MAX_MESSAGE_BYTES) {
    const bytes = utf8Length(text);
    if (bytes > MAX_MESSAGE_BYTES) throw new WireSizeError(bytes);
  }
  return text;
}

/** A refused message; `id` is set when the message was an invoke whose id could be read. */
export type Decoded<T> = { ok: true; message: T } | { ok: false; reason: string; id?: number };

function decodeWith<T>(schema: z.ZodType<T>, text: string): Decoded<T> {
  const bytes = text.length * 3 > MAX_MESSAGE_BYTES ? utf8Length(text) : 0;
  if (bytes > MAX_MESSAGE_BYTES) return { ok: false, reason: new WireSizeError(bytes).message };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'The message is not valid JSON.' };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  const reason = 'The message does not have the shape of the wire format.';
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return callId.safeParse(id).success ? { ok: false, reason, id: id as number } : { ok: false, reason };
}

export const decodeClientMessage = (text: string): Decoded<ClientMessage> => decodeWith(clientMessage, text);
export const decodeServerMessage = (text: string): Decoded<ServerMessage> => decodeWith(serverMessage, text);

/**
 * What the preload exposes as `window.mnemo`: one generic call and event subscription, no names. The
 * call answers an Outcome (contextBridge drops the fields of thrown errors, so errors travel as data and
 * shared/transport/bridge-client.ts turns them into ContractErrors); `space` is the envelope's.
 */
export interface BridgeApi {
  invoke(channel: string, payload: unknown, space?: string): Promise<Outcome>;
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>, meta: EventMeta) => void): () => void;
}

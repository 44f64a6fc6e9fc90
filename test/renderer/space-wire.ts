// The renderer's real client transport (shared/transport/rpc-client.ts, the same codec as the WebSocket)
// against a server end that does what the real one does with spaces (electron/core/rpc/dispatcher.ts,
// tested against the real backend in test/integration/transports/spaces-routing.test.ts): a call runs in
// the space its envelope names (none: Personal), space-free channels (app.*, spaces.*) in Personal, an
// unknown space is refused; events go out tagged with their space. Each space is a small in-memory
// backend of its own, and every call is logged with the space that answered it.
import { isSpaceFree, type Api, type EventName, type EventPayload } from '../../shared/contract';
import type { SpaceListed } from '../../shared/channels/spaces';
import { defaultSettings } from '../../shared/channels/settings';
import { ContractError } from '../../shared/errors';
import { createRpcClient } from '../../shared/transport/rpc-client';
import { decodeClientMessage, encodeMessage, type ServerMessage } from '../../shared/wire';
import { createFakeBackend, type FakeBackend } from './memory-fake-backend';

export interface SpaceWire {
  api: Api;
  spaces: Map<string, FakeBackend>;
  /** [channel, the space whose backend answered] for every call. */
  answered: [string, string][];
  /** An event that happened in `space` (undefined: a space-free event). */
  emit<E extends EventName>(space: string | undefined, name: E, payload: EventPayload<E>): void;
  settle(): Promise<void>;
}

const at = '2026-03-01T12:00:00.000Z';

export function createSpaceWire(seeds: Record<string, Record<string, string>>): SpaceWire {
  const spaces = new Map<string, FakeBackend>();
  const answered: [string, string][] = [];
  for (const [id, seed] of Object.entries(seeds)) {
    const backend = createFakeBackend(seed);
    Object.assign(backend.impl, {
      'app.ready': () => ({ ok: true }),
      'settings.get': () => ({
        settings: { ...defaultSettings, memoryWriteMode: id === 'personal' ? 'automatic' : 'ask' },
        apiKey: { hasApiKey: true, source: 'env', insecureStorage: false },
      }),
      'conversations.list': () => ({ conversations: [] }),
      'conversations.search': () => ({ results: [] }),
      'chat.attach': () => ({ run: null, events: [] }),
      'spaces.list': () => ({
        spaces: [...spaces.keys()].map((sid): SpaceListed => ({
          id: sid,
          name: sid === 'personal' ? 'Personal' : sid,
          colour: '#6b7280',
          created: at,
          settings: {},
          conversations: 0,
          memoryFiles: spaces.get(sid)!.files.size,
        })),
      }),
    });
    spaces.set(id, backend);
  }

  const client = createRpcClient();
  const send = (message: ServerMessage): void => {
    const text = encodeMessage(message);
    setTimeout(() => client.receive(text), 0);
  };
  client.connected((text) => {
    const decoded = decodeClientMessage(text);
    if (!decoded.ok || decoded.message.t !== 'invoke') return;
    const { id, channel, payload, space } = decoded.message;
    const name = String(channel);
    const answering = space === undefined || isSpaceFree(name) ? 'personal' : String(space);
    const backend = spaces.get(answering);
    void (async () => {
      try {
        if (!backend) {
          throw new ContractError('not_found', 'That space does not exist.', { spaceGone: answering });
        }
        answered.push([name, answering]);
        const fn = (backend.api as unknown as Record<string, (req: unknown) => Promise<unknown>>)[name]!;
        send({ t: 'result', id, ok: true, value: await fn(payload) });
      } catch (error) {
        const e = error instanceof ContractError ? error : new ContractError('internal', String(error));
        send({ t: 'result', id, ok: false, error: e.toData() });
      }
    })();
  });

  return {
    api: client.api,
    spaces,
    answered,
    emit(space, name, payload) {
      send(space === undefined ? { t: 'event', name, payload } : { t: 'event', name, payload, space });
    },
    async settle() {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

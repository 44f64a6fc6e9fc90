import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FanOutBus } from '../../../electron/core/events.js';
import { RpcServer } from '../../../electron/core/rpc/server.js';
import { createMemoryPair } from '../../../electron/core/transports/memory-pair.js';
import { ContractError } from '../../../shared/errors.js';
import { MAX_MESSAGE_BYTES } from '../../../shared/wire.js';
import { handlerTable, recordingLogger } from './helpers.js';

const version = 'a'.repeat(64);

function setup(bodies: Parameters<typeof handlerTable>[0] = {}) {
  const bus = new FanOutBus();
  const log = recordingLogger();
  const server = new RpcServer({ handlers: handlerTable(bodies), bus, log });
  return { bus, log, server };
}

describe('in-memory pair', () => {
  it('copies payloads across (no shared references, JSON semantics)', async () => {
    let received: unknown;
    const { server } = setup({
      'memory.create': (req) => {
        received = req;
        return Promise.resolve({ version, journalId: 'j1' });
      },
    });
    const api = createMemoryPair(server);
    const payload = { path: '/memories/a.md', content: 'x' };
    const result = await api['memory.create'](payload);
    expect(result).toEqual({ version, journalId: 'j1' });
    expect(received).toEqual(payload);
    expect(received).not.toBe(payload);
  });

  it('answers a result too large for the wire with a clear internal error', async () => {
    const { server, log } = setup({
      'memory.read': () =>
        Promise.resolve({
          path: '/memories/a.md',
          content: 'x'.repeat(MAX_MESSAGE_BYTES),
          version,
          facts: [],
        }),
    });
    const api = createMemoryPair(server);
    const error = await api['memory.read']({ path: '/memories/a.md' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect(error).toMatchObject({ code: 'internal', message: expect.stringMatching(/too large to send/) });
    expect(log.lines.some((l) => l.message.includes('too large'))).toBe(true);
  });

  it('fails calls in flight when closed, and ends its server session', async () => {
    let release: (() => void) | undefined;
    const { server } = setup({
      'memory.list': () =>
        new Promise((resolve) => {
          release = () => resolve({ entries: [], totalBytes: 0 });
        }),
    });
    const api = createMemoryPair(server);
    const pending = api['memory.list']({});
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.sessionCount).toBe(1);
    api.close();
    release?.();
    await expect(pending).rejects.toMatchObject({ code: 'unavailable' });
    expect(server.sessionCount).toBe(0);
  });

  it('delivers every event exactly once and in order, whatever the interleaving of ready and reloads (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('emit', 'emit', 'emit', 'ready', 'unready', 'roundtrip'), { maxLength: 40 }),
        async (steps) => {
          const { bus, server } = setup({
            'settings.get': () => Promise.reject(new ContractError('not_found', 'x')),
          });
          const api = createMemoryPair(server);
          const seen: string[] = [];
          api.on('app.notice', (n) => seen.push(n.message));
          await api['settings.get']({}).catch(() => undefined);
          const session = [
            ...(server as unknown as { sessions: Set<{ markNotReady(): void }> }).sessions,
          ][0]!;
          let emitted = 0;
          for (const step of steps) {
            if (step === 'emit') bus.emit('app.notice', { level: 'info', message: String(++emitted) });
            else if (step === 'ready') await api['app.ready']({});
            else if (step === 'unready') session.markNotReady();
            else await api['settings.get']({}).catch(() => undefined);
          }
          await api['app.ready']({});
          expect(seen).toEqual(Array.from({ length: emitted }, (_, i) => String(i + 1)));
          api.close();
          server.close();
        },
      ),
      { numRuns: 60 },
    );
  });
});

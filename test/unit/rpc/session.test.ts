import { describe, expect, it } from 'vitest';
import { FanOutBus } from '../../../electron/core/events.js';
import { RpcServer } from '../../../electron/core/rpc/server.js';
import { handlerTable, recordingLogger } from './helpers.js';

const notice = (n: number) => ({ level: 'info' as const, message: `notice ${n}` });

function setup(maxQueuedEvents?: number) {
  const bus = new FanOutBus();
  const log = recordingLogger();
  const server = new RpcServer({
    handlers: handlerTable({}),
    bus,
    log,
    ...(maxQueuedEvents ? { maxQueuedEvents } : {}),
  });
  const open = () => {
    const delivered: Array<[string, unknown]> = [];
    const session = server.openSession<string>({
      kind: 'test',
      isAllowed: (s) => s === 'app',
      deliver: (name, payload) => void delivered.push([name, payload]),
    });
    return { session, delivered };
  };
  return { bus, log, server, open };
}

describe('RpcSession event queue', () => {
  it('queues events until ready, then delivers them once, in order, and later ones at once', async () => {
    const { bus, open } = setup();
    const { session, delivered } = open();
    bus.emit('app.notice', notice(1));
    bus.emit('app.notice', notice(2));
    expect(delivered).toEqual([]);
    expect(await session.invoke('app', 'app.ready', {})).toEqual({ ok: true, value: { ok: true } });
    bus.emit('app.notice', notice(3));
    expect(delivered.map(([, p]) => (p as { message: string }).message)).toEqual([
      'notice 1',
      'notice 2',
      'notice 3',
    ]);
    await session.invoke('app', 'app.ready', {});
    expect(delivered).toHaveLength(3);
  });

  it('does not become ready for a foreign sender (neither app.ready nor the wire ready)', async () => {
    const { bus, open } = setup();
    const { session, delivered } = open();
    bus.emit('app.notice', notice(1));
    expect((await session.invoke('evil', 'app.ready', {})).ok).toBe(false);
    expect(session.markReady('evil')).toBe(false);
    expect(delivered).toEqual([]);
    expect(session.markReady('app')).toBe(true);
    expect(delivered).toHaveLength(1);
  });

  it('queues again after markNotReady (a reload) and flushes on the next ready', () => {
    const { bus, open } = setup();
    const { session, delivered } = open();
    session.markReady('app');
    bus.emit('app.notice', notice(1));
    session.markNotReady();
    bus.emit('app.notice', notice(2));
    expect(delivered).toHaveLength(1);
    session.markReady('app');
    expect(delivered).toHaveLength(2);
  });

  it('keeps order when a listener causes another event while the queue is flushed', () => {
    const { bus, server } = setup();
    const order: string[] = [];
    const session = server.openSession<string>({
      kind: 'test',
      isAllowed: () => true,
      deliver: (_name, payload) => {
        const message = (payload as { message: string }).message;
        order.push(message);
        if (message === 'notice 1') bus.emit('app.notice', notice(3));
      },
    });
    bus.emit('app.notice', notice(1));
    bus.emit('app.notice', notice(2));
    session.markReady('x');
    expect(order).toEqual(['notice 1', 'notice 2', 'notice 3']);
  });

  it('drops the oldest events beyond the cap and says so once in the log', () => {
    const { bus, open, log } = setup(3);
    const { session, delivered } = open();
    for (let i = 1; i <= 5; i++) bus.emit('app.notice', notice(i));
    session.markReady('app');
    expect(delivered.map(([, p]) => (p as { message: string }).message)).toEqual([
      'notice 3',
      'notice 4',
      'notice 5',
    ]);
    expect(log.lines.filter((l) => l.message.includes('queue full'))).toHaveLength(1);
  });

  it('drops events that break their schema instead of sending them', () => {
    const { bus, open, log } = setup();
    const { session, delivered } = open();
    session.markReady('app');
    bus.emit('app.notice', { level: 'shout', message: 1 } as never);
    expect(delivered).toEqual([]);
    expect(log.lines.some((l) => l.level === 'error' && l.message.includes('schema'))).toBe(true);
  });

  it('stops delivering after close and refuses calls', async () => {
    const { bus, open, server } = setup();
    const { session, delivered } = open();
    session.markReady('app');
    expect(server.sessionCount).toBe(1);
    session.close();
    bus.emit('app.notice', notice(1));
    expect(delivered).toEqual([]);
    expect(server.sessionCount).toBe(0);
    const outcome = await session.invoke('app', 'settings.get', {});
    expect(outcome.ok).toBe(false);
  });

  it('survives a deliver that throws (a destroyed window) and keeps serving others', () => {
    const { bus, server, open } = setup();
    server
      .openSession<string>({
        kind: 'broken',
        isAllowed: () => true,
        deliver: () => {
          throw new Error('Object has been destroyed');
        },
      })
      .markReady('x');
    const { session, delivered } = open();
    session.markReady('app');
    bus.emit('app.notice', notice(1));
    expect(delivered).toHaveLength(1);
  });
});

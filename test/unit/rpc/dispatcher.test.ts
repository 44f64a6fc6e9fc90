import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../electron/core/rpc/dispatcher.js';
import { INTERNAL_MESSAGE } from '../../../electron/core/rpc/errors.js';
import { defaultSettings } from '../../../shared/channels/settings.js';
import { ContractError } from '../../../shared/errors.js';
import type { Outcome } from '../../../shared/wire.js';
import { handlerTable, recordingLogger } from './helpers.js';

const view = {
  settings: defaultSettings,
  apiKey: { hasApiKey: false, source: 'none' as const, insecureStorage: false },
};

function setup(bodies: Parameters<typeof handlerTable>[0] = {}) {
  const log = recordingLogger();
  const calls: unknown[] = [];
  const dispatch = createDispatcher({
    log,
    handlers: handlerTable({
      'settings.get': () => Promise.resolve(view),
      'settings.set': (req) => {
        calls.push(req);
        return Promise.resolve(view);
      },
      ...bodies,
    }),
  });
  const call = (channel: unknown, payload: unknown, sender = 'app'): Promise<Outcome> =>
    dispatch({ sender, isAllowed: (s) => s === 'app', channel, payload, ctx: { clientId: 't-1' } });
  return { call, log, calls };
}

function errorOf(outcome: Outcome) {
  if (outcome.ok) throw new Error(`expected an error, got ${JSON.stringify(outcome.value)}`);
  return outcome.error;
}

describe('dispatcher', () => {
  it('answers a valid call with the parsed result', async () => {
    const { call } = setup();
    expect(await call('settings.get', {})).toEqual({ ok: true, value: view });
  });

  it('refuses a foreign sender before looking at the channel or payload', async () => {
    const { call, calls, log } = setup();
    const error = errorOf(await call('settings.set', { patch: { maxTurns: 3 } }, 'evil'));
    expect(error.code).toBe('forbidden');
    expect(calls).toEqual([]);
    expect(log.lines.some((l) => l.level === 'warn')).toBe(true);
  });

  it('treats a throwing sender check as a refusal', async () => {
    const { log } = setup();
    const dispatch = createDispatcher({ log, handlers: handlerTable({}) });
    const outcome = await dispatch({
      sender: 1,
      isAllowed: () => {
        throw new Error('no frame');
      },
      channel: 'settings.get',
      payload: {},
      ctx: { clientId: 'x' },
    });
    expect(errorOf(outcome).code).toBe('forbidden');
  });

  it.each([['nope.nothing'], ['__proto__'], ['toString'], ['constructor'], [42], [null]])(
    'refuses the unknown channel %j',
    async (channel) => {
      const { call } = setup();
      const error = errorOf(await call(channel, {}));
      expect(error.code).toBe('unknown_channel');
    },
  );

  it('refuses a malformed payload with a readable message and never runs the handler', async () => {
    const { call, calls } = setup();
    const error = errorOf(await call('settings.set', { patch: { maxTurns: 'many', theme: 'neon' } }));
    expect(error.code).toBe('invalid_request');
    const parts = error.message.split('; ').sort();
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatch(/^patch\.maxTurns: .*expected number/);
    expect(parts[1]).toMatch(/^patch\.theme: .*"system"/);
    expect(error.message).not.toMatch(/ZodError|\bat\s.*:\d+/);
    expect(error.details).toMatchObject({ channel: 'settings.set' });
    expect(calls).toEqual([]);
  });

  it('uses the schema messages meant for people', async () => {
    const { call } = setup();
    const error = errorOf(await call('chat.send', { text: '   ' }));
    expect(error.message).toBe('text: Type a message first.');
  });

  it('refuses unknown keys where the schema is strict', async () => {
    const { call } = setup();
    const error = errorOf(await call('settings.set', { patch: { apiBaseUrl: 'http://evil' } }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('apiBaseUrl');
  });

  it('gives the handler the parsed payload (defaults applied)', async () => {
    const seen: unknown[] = [];
    const { call } = setup({
      'memory.search': (req) => {
        seen.push(req);
        return Promise.resolve({ hits: [], truncated: false });
      },
    });
    await call('memory.search', { query: '  cats ' });
    expect(seen).toEqual([{ query: 'cats', limit: 50 }]);
  });

  it('passes a ContractError through, with host paths scrubbed', async () => {
    const { call } = setup({
      'settings.reset': () =>
        Promise.reject(
          new ContractError('conflict', "Cannot reset: '/home/alice/.config/Mnemo/config.json' is locked."),
        ),
    });
    const error = errorOf(await call('settings.reset', {}));
    expect(error).toEqual({ code: 'conflict', message: "Cannot reset: '<path>' is locked." });
  });

  it('answers any other error with a generic internal error and logs the real one', async () => {
    const { call, log } = setup({
      'settings.reset': () =>
        Promise.reject(new Error("EACCES: permission denied, open '/home/alice/x.json'")),
    });
    const error = errorOf(await call('settings.reset', {}));
    expect(error).toEqual({ code: 'internal', message: INTERNAL_MESSAGE });
    const logged = log.lines.find((l) => l.level === 'error');
    expect(String(logged?.fields?.error)).toContain('EACCES');
  });

  it('answers a synchronous throw the same way', async () => {
    const { call } = setup({
      'settings.reset': () => {
        throw new TypeError('x is undefined');
      },
    });
    expect(errorOf(await call('settings.reset', {})).code).toBe('internal');
  });

  it('strips what a handler returns beyond its schema, and refuses a result that breaks it', async () => {
    const leaky = { ...view, apiKey: { ...view.apiKey, key: 'sk-ant-secret' } };
    const { call } = setup({
      'settings.get': () => Promise.resolve(leaky),
      'settings.reset': () => Promise.resolve({ settings: 'broken' } as never),
    });
    const outcome = await call('settings.get', {});
    expect(outcome).toEqual({ ok: true, value: view });
    expect(JSON.stringify(outcome)).not.toContain('sk-ant');
    expect(errorOf(await call('settings.reset', {})).code).toBe('internal');
  });

  it('passes the call context through', async () => {
    const seen: string[] = [];
    const { call } = setup({
      'app.info': (_req, ctx) => {
        seen.push(ctx.clientId);
        return Promise.resolve({ version: '1', host: 'test', dataDir: '/d', platform: 'linux' });
      },
    });
    await call('app.info', {});
    expect(seen).toEqual(['t-1']);
  });
});

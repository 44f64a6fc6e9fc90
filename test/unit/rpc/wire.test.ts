import { describe, expect, it } from 'vitest';
import {
  decodeClientMessage,
  decodeServerMessage,
  encodeMessage,
  MAX_MESSAGE_BYTES,
  utf8Length,
  WireSizeError,
} from '../../../shared/wire.js';

describe('wire format', () => {
  it('round-trips messages', () => {
    const invoke = { t: 'invoke' as const, id: 7, channel: 'settings.get', payload: { a: [1, 'x'] } };
    expect(decodeClientMessage(encodeMessage(invoke))).toEqual({ ok: true, message: invoke });
    const result = {
      t: 'result' as const,
      id: 7,
      ok: false as const,
      error: { code: 'not_found' as const, message: 'x' },
    };
    expect(decodeServerMessage(encodeMessage(result))).toEqual({ ok: true, message: result });
  });

  it('refuses what is not the wire format, keeping the id when it can be read', () => {
    expect(decodeClientMessage('not json')).toEqual({ ok: false, reason: 'The message is not valid JSON.' });
    expect(decodeClientMessage('{"t":"invoke","id":3}')).toMatchObject({ ok: false, id: 3 });
    expect(decodeClientMessage('{"t":"launch"}')).toMatchObject({ ok: false });
    expect(decodeClientMessage('{"t":"invoke","id":-1,"channel":"x"}')).not.toHaveProperty('id');
  });

  it('caps the size of a message with a clear error, counting UTF-8 bytes', () => {
    const big = 'é'.repeat(MAX_MESSAGE_BYTES / 2 + 10); // 2 bytes each: just over the cap
    expect(() => encodeMessage({ t: 'event', name: 'app.notice', payload: big })).toThrow(WireSizeError);
    expect(() => encodeMessage({ t: 'event', name: 'app.notice', payload: big })).toThrow(
      /too large \(5\.00 MB; at most 5 MB\)/,
    );
    const fits = 'a'.repeat(MAX_MESSAGE_BYTES - 100);
    expect(encodeMessage({ t: 'event', name: 'x', payload: fits }).length).toBeLessThanOrEqual(
      MAX_MESSAGE_BYTES,
    );
    expect(decodeClientMessage(`"${big}"`)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('too large'),
    });
  });

  it('counts UTF-8 like TextEncoder', () => {
    for (const text of ['', 'abc', 'é', '€', '😀', 'a😀b€é', '\ud800x']) {
      expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
    }
  });
});

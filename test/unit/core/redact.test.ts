import { describe, expect, it } from 'vitest';
import { describeContent, redactFields, redactText } from '../../../electron/core/redact.js';

describe('redactText', () => {
  it.each([
    ['key sk-ant-api03-AbC_dEf-123 in text', 'key [redacted] in text'],
    ['Authorization: Bearer abc.def-ghi', 'Authorization: Bearer [redacted]'],
    ['{"x-api-key":"zzzz1234"}', '{"x-api-key":"[redacted]"}'],
    ['openai sk-proj1234567890abcdefXYZ', 'openai [redacted]'],
  ])('%s', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
  it('masks the configured key by value, whatever its shape', () => {
    expect(redactText('used custom-key-987654 today', ['custom-key-987654'])).toBe('used [redacted] today');
  });
  it('caps very long strings', () => {
    expect(redactText('a'.repeat(5000)).length).toBeLessThan(2100);
  });
});

describe('redactFields', () => {
  it('replaces content fields by size and hash, recursively', () => {
    const out = redactFields({
      command: 'create',
      input: { path: '/memories/a.md', file_text: 'I hate cilantro' },
      nested: [{ content: 'secret diary' }],
    }) as Record<string, unknown>;
    const text = JSON.stringify(out);
    expect(text).not.toContain('cilantro');
    expect(text).not.toContain('secret diary');
    expect(out.command).toBe('create');
    expect(text).toContain(describeContent('secret diary'));
  });
  it('keeps error messages but masks keys in them', () => {
    const out = redactFields({ error: new Error('401 for key sk-ant-xyz-123') }) as {
      error: { message: string };
    };
    expect(out.error.message).toBe('401 for key [redacted]');
  });
});

// What a forget redacts in a conversation, and what it leaves alone: table-driven texts, the record shapes
// that carry a memory file (tool results, tool inputs, backfill, notes, summaries), and fast-check
// properties (idempotent; no substantial line survives; text sharing no passage is unchanged).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FORGOTTEN,
  SUBSTANTIAL_CHARS,
  forgottenMatcher,
} from '../../../electron/core/conversations/forgotten-text.js';
import { JsonlWriter } from '../../../electron/core/conversations/jsonl.js';
import { createRedactor } from '../../../electron/core/conversations/redact.js';
import { redactConversationFile, replaceLines } from '../../../electron/core/conversations/redact-files.js';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';

const V1 = '# Health\n\n- Allergic to penicillin since childhood\n- ok\n';
const V2 = '# Health\n\n- Allergic to penicillin since childhood\n- Takes lisinopril every morning\n- ok\n';
const m = forgottenMatcher([V1, V2]);

describe('forgotten text', () => {
  const cases: { name: string; input: string; expected: string }[] = [
    {
      name: 'a whole version',
      input: `before\n${V2.trim()}\nafter`,
      expected: `before\n${FORGOTTEN}\nafter`,
    },
    {
      name: 'the backfill section of the file',
      input: `Index:\n1K\t/memories/h.md\n<file path="/memories/h.md">\n${V1}\n</file>\n<file path="/memories/x.md">\nOther notes about gardening here\n</file>`,
      expected: `Index:\n1K\t/memories/h.md\n<file path="/memories/h.md">\n${FORGOTTEN}\n\n</file>\n<file path="/memories/x.md">\nOther notes about gardening here\n</file>`,
    },
    {
      name: 'a view with line numbers: the short lines of the run go too',
      input: `Here's the content:\n     1\t# Health\n     2\t\n     3\t- Allergic to penicillin since childhood\n     4\t- ok\n     5\t`,
      expected: `Here's the content:\n${FORGOTTEN}\n     5\t`,
    },
    {
      name: 'a passage quoted inside a sentence',
      input: 'You told me: Takes lisinopril every morning. Anything else?',
      expected: `You told me: ${FORGOTTEN}. Anything else?`,
    },
    { name: 'a heading alone stays', input: '# Health\nSee a doctor.', expected: '# Health\nSee a doctor.' },
    { name: 'a short line alone stays', input: 'Answer:\n- ok\n', expected: 'Answer:\n- ok\n' },
    {
      name: 'a shorter part of a passage stays (not substantial)',
      input: 'Allergic to penicillin? No.',
      expected: 'Allergic to penicillin? No.',
    },
    {
      name: 'unrelated text stays',
      input: 'The weather is fine today.',
      expected: 'The weather is fine today.',
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      expect(m.redact(c.input)).toBe(c.expected);
    });

  it('never matches a version with nothing substantial in it', () => {
    const tiny = forgottenMatcher(['- ok\n', '# Notes\n']);
    expect(tiny.empty).toBe(true);
    expect(tiny.redact('- ok\n# Notes\nall fine here, nothing to see')).toBe(
      '- ok\n# Notes\nall fine here, nothing to see',
    );
  });

  it('finds a sentence of a long line quoted alone', () => {
    const matcher = forgottenMatcher([
      'My sister Ana lives in Porto with her two cats. She works as a nurse at the city hospital.\n',
    ]);
    expect(
      matcher.redact(
        'Right: she works as a nurse at the city hospital. And She works as a nurse at the city hospital.',
      ),
    ).toBe(`Right: she works as a nurse at the city hospital. And ${FORGOTTEN}`);
  });

  it('leaves a passage another memory file still holds in free text', () => {
    const shared = 'Prefers short and direct answers';
    const matcher = forgottenMatcher(
      [`- ${shared}\n- Allergic to penicillin since childhood\n`],
      [`- ${shared}\n`],
    );
    expect(matcher.redact(`${shared}. Allergic to penicillin since childhood.`)).toBe(
      `${shared}. ${FORGOTTEN}.`,
    );
  });

  const line = fc
    .string({ unit: fc.constantFrom('a', 'b', 'c', ' ', 'x', 'y', '-', '1'), minLength: 0, maxLength: 40 })
    .filter((s) => !s.includes('\n'));
  const file = fc.array(line, { minLength: 1, maxLength: 8 }).map((ls) => ls.join('\n'));

  it('property: idempotent, and no substantial line of the file survives', () => {
    fc.assert(
      fc.property(file, fc.array(line, { maxLength: 6 }), fc.nat(6), (content, around, at) => {
        const matcher = forgottenMatcher([content]);
        const text = [...around.slice(0, at), content, ...around.slice(at)].join('\n');
        const once = matcher.redact(text);
        expect(matcher.redact(once)).toBe(once);
        for (const l of content.split('\n')) {
          const p = l
            .trim()
            .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
            .trim();
          if (p.length >= SUBSTANTIAL_CHARS && /[a-z0-9]/.test(p) && !FORGOTTEN.includes(p))
            expect(once.includes(p)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: the JSON prefilter never skips a text the redaction would change', () => {
    fc.assert(
      fc.property(file, fc.array(line, { maxLength: 6 }), fc.boolean(), (content, around, quote) => {
        const matcher = forgottenMatcher([content]);
        const text = [...around, ...(quote ? [content] : [])].join('\n');
        if (matcher.redact(text) !== text)
          expect(matcher.mayOccurInJson(JSON.stringify({ text }))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('property: a text sharing no substantial passage with the file is unchanged', () => {
    fc.assert(
      fc.property(file, fc.array(line, { maxLength: 10 }), (content, lines) => {
        const upper = lines.map((l) => l.toUpperCase()); // the file's lines are lower case
        const text = upper.join('\n');
        expect(forgottenMatcher([content]).redact(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

const msg = (
  id: string,
  role: 'user' | 'assistant',
  kind: MessageRecord['kind'],
  content: MessageRecord['content'],
  extra: Partial<MessageRecord> = {},
): MessageRecord => ({
  t: 'msg',
  id,
  role,
  kind,
  content,
  at: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('redacting conversation records', () => {
  const secret = 'Allergic to penicillin since childhood';
  const content = `# Health\n- ${secret}\n`;
  const redactor = createRedactor({ paths: ['/memories/health.md'], versions: [content] });

  const records = (): ConversationRecord[] => [
    { t: 'meta', v: 1, id: 'c1', title: 'Health', createdAt: '2026-01-01T00:00:00.000Z', memory: true },
    msg('m1', 'user', 'user', [{ type: 'text', text: `Remember: ${secret}` }], {
      text: `Remember: ${secret}`,
    }),
    msg('m2', 'assistant', 'assistant', [
      { type: 'text', text: 'Saving it.' },
      {
        type: 'tool_use',
        id: 'tu1',
        name: 'memory',
        input: { command: 'create', path: '/memories/health.md', file_text: content },
      },
      { type: 'tool_use', id: 'tu2', name: 'memory', input: { command: 'view', path: '/memories/other.md' } },
      { type: 'tool_use', id: 'tu3', name: 'memory_search', input: { query: 'penicillin' } },
    ]),
    msg('m3', 'user', 'tool_results', [
      {
        type: 'tool_result',
        tool_use_id: 'tu1',
        content: 'File created successfully at: /memories/health.md',
      },
      {
        type: 'tool_result',
        tool_use_id: 'tu2',
        content: [{ type: 'text', text: 'Here is other.md: Likes long walks on the beach' }],
      },
      { type: 'tool_result', tool_use_id: 'tu3', content: '/memories/health.md:2: - Allergic to penicil…' },
    ]),
    {
      t: 'event',
      id: 'e1',
      event: 'memory_changed',
      text: `changed: ${secret}`,
      at: '2026-01-01T00:00:00.000Z',
    },
    {
      t: 'compacted',
      strategy: 'native',
      lastMessageId: 'm3',
      summary: `They are ${secret}.`,
      block: { type: 'compaction', content: `They are ${secret}.` } as never,
      tokensBefore: 1,
      tokensAfter: 1,
      messagesCompacted: 3,
      at: '2026-01-01T00:00:00.000Z',
    },
  ];

  it('replaces results and inputs of calls on the file, and the content elsewhere; keeps the rest', () => {
    const rs = records();
    expect(redactor.records(rs)).toBe(true);
    const all = JSON.stringify(rs);
    expect(all).not.toContain(secret);
    expect(all).not.toContain('penicil…');
    const [, user, assistant, results, event, compacted] = rs as [
      never,
      MessageRecord,
      MessageRecord,
      MessageRecord,
      { text: string },
      { strategy: string; block?: unknown; summary: string },
    ];
    expect(user.text).toBe(`Remember: ${FORGOTTEN}`);
    expect(assistant.content[1]).toMatchObject({
      input: { command: 'create', path: '/memories/health.md', file_text: FORGOTTEN },
    });
    expect(assistant.content[3]).toMatchObject({ input: { query: 'penicillin' } });
    expect(results.content[0]).toMatchObject({
      tool_use_id: 'tu1',
      content: [{ type: 'text', text: FORGOTTEN }],
    });
    expect(JSON.stringify(results.content[1])).toContain('Likes long walks on the beach');
    expect(results.content[2]).toMatchObject({ content: `/memories/health.md:2: ${FORGOTTEN}` });
    expect(event.text).toBe(`changed: ${FORGOTTEN}`);
    // A signed block that quoted the file becomes the app's own (local) summary.
    expect(compacted).toMatchObject({ strategy: 'local', summary: `They are ${FORGOTTEN}.` });
    expect(compacted.block).toBeUndefined();
    expect(redactor.records(rs)).toBe(false);
  });

  it('a forgotten folder takes the calls on every file inside it', () => {
    const folder = createRedactor({ paths: ['/memories/health'], versions: [] });
    const rs: ConversationRecord[] = [
      msg('a', 'assistant', 'assistant', [
        {
          type: 'tool_use',
          id: 't1',
          name: 'memory',
          input: { command: 'view', path: '/memories/health/a.md' },
        },
        {
          type: 'tool_use',
          id: 't2',
          name: 'memory',
          input: { command: 'view', path: '/memories/healthy.md' },
        },
      ]),
      msg('b', 'user', 'tool_results', [
        { type: 'tool_result', tool_use_id: 't1', content: 'short' },
        { type: 'tool_result', tool_use_id: 't2', content: 'short too' },
      ]),
    ];
    expect(folder.records(rs)).toBe(true);
    expect((rs[1] as MessageRecord).content).toMatchObject([
      { content: [{ type: 'text', text: FORGOTTEN }] },
      { content: 'short too' },
    ]);
  });

  it('rewrites a conversation file crash-safely and only when something changed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mnemo-redact-'));
    try {
      const file = path.join(dir, 'c1.jsonl');
      await writeFile(
        file,
        records()
          .map((r) => JSON.stringify(r) + '\n')
          .join('') + '{"t":"msg","torn',
      );
      expect(redactConversationFile(file, redactor)).toBe(true);
      const after = await readFile(file, 'utf8');
      expect(after).not.toContain(secret);
      expect(after.endsWith('\n')).toBe(true);
      expect(
        after
          .split('\n')
          .filter(Boolean)
          .every((l) => JSON.parse(l)),
      ).toBe(true);
      expect(redactConversationFile(file, redactor)).toBe(false);
      expect(await readFile(file, 'utf8')).toBe(after);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a conversation file replaced under an open writer', () => {
  it('gets the next lines (another process redacted it): none are lost in the old file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mnemo-redact-'));
    try {
      const file = path.join(dir, 'c.jsonl');
      const writer = new JsonlWriter(file);
      await writer.append([{ n: 1 }]);
      replaceLines(file, ['{"n":1,"redacted":true}']); // what another process's forget does
      await writer.append([{ n: 2 }]);
      await writer.close();
      expect(await readFile(file, 'utf8')).toBe('{"n":1,"redacted":true}\n{"n":2}\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// The second half of the hostile-input table: content, edits, consistency, errors.
import { writeFile } from 'node:fs/promises';
import { inCategory, mem, seed, create, view, type HostileCase } from './hostile-kit.js';

const secretCase = (name: string, value: string, detector: RegExp): HostileCase => ({
  category: 'content',
  name: `secret: ${name}`,
  tool: create('/memories/creds.md', `# Keys\nmine: ${value}\n`),
  message: detector,
});

export const contentCases: HostileCase[] = [
  {
    category: 'content',
    name: 'file above the cap',
    tool: create('/memories/big.md', 'x'.repeat(100 * 1024 + 1)),
    message: /above the 102400-byte limit per file/,
  },
  {
    category: 'content',
    name: 'str_replace growing past the cap',
    setup: seed('/memories/a.md', 'x'.repeat(100 * 1024 - 10) + 'TAIL'),
    tool: { command: 'str_replace', path: '/memories/a.md', old_str: 'TAIL', new_str: 'y'.repeat(100) },
    message: /above the 102400-byte limit per file\. Nothing was changed/,
  },
  {
    category: 'content',
    name: 'quota',
    limits: { quotaBytes: 300 * 1024 },
    setup: async (s) => {
      for (let i = 0; i < 3; i++) await s.memory.write(`/memories/q${i}.md`, 'q'.repeat(90 * 1024), null);
    },
    api: (m) => m.write('/memories/q9.md', 'q'.repeat(99 * 1024), null),
    code: 'quota',
    message: /above its quota of 307200 bytes/,
  },
  secretCase('AWS access key', 'AKIAIOSFODNN7EXAMPLE', /looks like an AWS access key \(line 2\)/),
  secretCase(
    'Anthropic key',
    'sk-ant-api03-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'.repeat(2),
    /looks like an Anthropic API key/,
  ),
  secretCase(
    'OpenAI key',
    'sk-proj-' + 'Zq8Xw7Vu6Ts5Rq4Po3Nm2Lk1Jh0Gf9Ed8Cb7'.repeat(1),
    /looks like an OpenAI API key/,
  ),
  secretCase('GitHub token', 'ghp_' + 'aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2', /looks like a GitHub token/),
  secretCase('Slack token', 'xoxb-1234567890-abcdefghijkl', /looks like a Slack token/),
  secretCase('Google API key', 'AIza' + 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q', /looks like a Google API key/),
  secretCase(
    'private key',
    '\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----',
    /looks like a private key block \(line 3\)/,
  ),
  secretCase(
    'JWT',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    /looks like a JSON Web Token/,
  ),
  secretCase(
    'password assignment',
    'password = "Xk9#mQ2$vL7!pR4@"',
    /looks like a password or secret assignment/,
  ),
  secretCase('GitLab token', 'glpat-' + 'Qw3rTy7uIo9pAs2dFg4h', /looks like a GitLab token \(line 2\)/),
  secretCase(
    'password in a URL',
    'postgres://app:' + 'Tr0ub4dor' + '@db.internal/app',
    /a password inside a URL/,
  ),
  secretCase(
    'key split by zero-width spaces',
    'ghp_' + 'aB1cD2eF3g\u200bH4iJ5kL6mN\u200b7oP8qR9sT0uV1wX2',
    /looks like a GitHub token \(line 2\)/,
  ),
  secretCase(
    'key in full-width letters',
    'ｓｋ＿ｔｅｓｔ＿' + 'ａＢ１ｃＤ２ｅＦ３ｇＨ４ｉＪ５ｋＬ６ｍＮ７ｏ',
    /looks like a Stripe secret key \(line 2\)/,
  ),
  {
    category: 'content',
    name: 'secret completed by a later str_replace',
    setup: seed('/memories/a.md', 'deploy\ntoken npm_' + 'aB1cD2eF3gH4\nend'),
    tool: {
      command: 'str_replace',
      path: '/memories/a.md',
      old_str: 'eF3gH4',
      new_str: 'eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2',
    },
    message: /looks like an npm token \(line 2\)\. Nothing was saved/,
  },
  {
    category: 'content',
    name: 'secret added by insert',
    setup: seed('/memories/a.md', 'hello'),
    tool: { command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'AKIAIOSFODNN7EXAMPLE' },
    message: /looks like an AWS access key/,
  },
  {
    category: 'content',
    name: 'NUL in content',
    tool: create('/memories/a.md', 'a\u0000b'),
    message: /contains NUL characters/,
  },
  {
    category: 'content',
    name: 'lone surrogate in content',
    tool: create('/memories/a.md', 'a\udc00b'),
    message: /broken Unicode/,
  },
  {
    category: 'content',
    name: 'invalid UTF-8 on disk',
    setup: async (s) => {
      await writeFile(mem(s, 'bin.md'), Buffer.from([0x66, 0xff, 0xfe, 0x00]));
    },
    tool: view('/memories/bin.md'),
    message: /\/memories\/bin\.md is not valid UTF-8 text/,
  },
];

const sr = (old_str: unknown, new_str?: unknown) => ({
  command: 'str_replace',
  path: '/memories/e.md',
  old_str,
  new_str,
});
const withE = seed('/memories/e.md', 'aaa\nbeta\nbeta gamma\nend');

export const editCases: HostileCase[] = inCategory('edits', [
  { name: 'empty old_str', setup: withE, tool: sr('', 'x'), message: /old_str is empty/ },
  {
    name: 'old_str not found',
    setup: withE,
    tool: sr('zeta', 'x'),
    message: /old_str `zeta` did not appear verbatim in \/memories\/e\.md/,
  },
  {
    name: 'two occurrences on two lines',
    setup: withE,
    tool: sr('beta', 'x'),
    message: /Multiple occurrences of old_str `beta` in lines: 2, 3/,
  },
  {
    name: 'overlapping occurrences on one line',
    setup: withE,
    tool: sr('aa', 'x'),
    message: /Multiple occurrences of old_str `aa` in lines: 1\./,
  },
  {
    name: 'old_str not a string',
    setup: withE,
    tool: sr(5, 'x'),
    message: /old_str: old_str must be a string/,
  },
  {
    name: 'insert_line negative',
    setup: withE,
    tool: { command: 'insert', path: '/memories/e.md', insert_line: -1, insert_text: 'x' },
    message: /range of lines of the file: \[0, 4\]/,
  },
  {
    name: 'insert_line past the end',
    setup: withE,
    tool: { command: 'insert', path: '/memories/e.md', insert_line: 5, insert_text: 'x' },
    message: /Invalid `insert_line` parameter: 5/,
  },
  {
    name: 'insert_line not an integer',
    setup: withE,
    tool: { command: 'insert', path: '/memories/e.md', insert_line: 1.5, insert_text: 'x' },
    message: /insert_line must be an integer/,
  },
  {
    name: 'view_range start 0',
    setup: withE,
    tool: { command: 'view', path: '/memories/e.md', view_range: [0, 2] },
    message: /start 0 is outside the file's lines \[1, 4\]/,
  },
  {
    name: 'view_range end before start',
    setup: withE,
    tool: { command: 'view', path: '/memories/e.md', view_range: [3, 1] },
    message: /end 1 must be -1 or between start 3/,
  },
  {
    name: 'view_range of strings',
    setup: withE,
    tool: { command: 'view', path: '/memories/e.md', view_range: ['1', '2'] },
    message: /view_range/,
  },
  {
    name: 'rename a folder into itself',
    setup: seed('/memories/f/a.md', 'a'),
    tool: { command: 'rename', old_path: '/memories/f', new_path: '/memories/f/g' },
    message: /Cannot move \/memories\/f into itself/,
  },
  {
    name: 'rename the root',
    tool: { command: 'rename', old_path: '/memories', new_path: '/memories/x' },
    message: /Cannot rename the \/memories directory itself/,
  },
  {
    name: 'delete the root',
    tool: { command: 'delete', path: '/memories' },
    message: /Cannot delete the \/memories directory itself/,
  },
  {
    name: 'rename onto an existing file',
    setup: async (s) => {
      await s.memory.create('/memories/a.md', 'a');
      await s.memory.create('/memories/b.md', 'b');
    },
    tool: { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' },
    message: /The destination \/memories\/b\.md already exists/,
  },
  {
    name: 'rename onto an existing folder',
    setup: async (s) => {
      await s.memory.create('/memories/a.md', 'a');
      await s.memory.create('/memories/d/b.md', 'b');
    },
    tool: { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/d' },
    message: /The destination \/memories\/d already exists/,
  },
  {
    name: 'unknown command',
    tool: { command: 'chmod', path: '/memories/a.md' },
    message: /use one of view, create, str_replace, insert, delete, rename/,
  },
  {
    name: 'missing file_text',
    tool: { command: 'create', path: '/memories/a.md' },
    message: /Invalid input for "create": file_text: file_text must be a string/,
  },
  { name: 'not an object', tool: 'view /memories', message: /Invalid input/ },
  {
    name: 'str_replace on a folder',
    setup: seed('/memories/f/a.md', 'a'),
    tool: { command: 'str_replace', path: '/memories/f', old_str: 'a', new_str: 'b' },
    message: /\/memories\/f is a folder, not a file/,
  },
  { name: 'create the root', tool: create('/memories'), message: /\/memories already exists/ },
]);

export const consistencyCases: HostileCase[] = inCategory('consistency', [
  {
    name: 'stale baseVersion',
    setup: seed('/memories/a.md', 'one'),
    api: async (m) => {
      const { version } = await m.read('/memories/a.md');
      await m.tool.execute(
        { command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' },
        { kind: 'agent', conversationId: 'c', toolUseId: 't' },
      );
      return m.write('/memories/a.md', 'mine', version);
    },
    code: 'conflict',
    message: /\/memories\/a\.md changed since you opened it/,
  },
  {
    name: 'null baseVersion over an existing file',
    setup: seed('/memories/a.md', 'one'),
    api: (m) => m.write('/memories/a.md', 'x', null),
    code: 'conflict',
    message: /changed since you opened it/,
  },
  {
    name: 'baseVersion of a deleted file',
    setup: seed('/memories/a.md', 'one'),
    api: async (m) => {
      const { version } = await m.read('/memories/a.md');
      await m.delete('/memories/a.md');
      return m.write('/memories/a.md', 'x', version);
    },
    code: 'conflict',
    message: /was deleted since you opened it/,
  },
  {
    name: 'revert after the file moved on',
    setup: seed('/memories/a.md', 'one'),
    api: async (m) => {
      const { journalId } = await m.write('/memories/a.md', 'two', 'any');
      await m.write('/memories/a.md', 'three', 'any');
      return m.revert(journalId);
    },
    code: 'conflict',
    message: /changed after that edit and the edit cannot be undone cleanly/,
  },
  {
    name: 'restore onto a taken path',
    setup: seed('/memories/a.md', 'one'),
    api: async (m) => {
      const { journalId } = await m.delete('/memories/a.md');
      await m.create('/memories/a.md', 'new');
      return m.restore(journalId);
    },
    code: 'exists',
    message: /exists again/,
  },
  {
    name: 'create over an existing file via the API',
    setup: seed('/memories/a.md', 'one'),
    api: (m) => m.create('/memories/a.md', 'x'),
    code: 'exists',
    message: /already exists/,
  },
]);

export const errorCases: HostileCase[] = inCategory('errors', [
  {
    name: 'view of a missing file',
    tool: view('/memories/missing.md'),
    message: /^Error: The path \/memories\/missing\.md does not exist\. Please provide a valid path\.$/,
  },
  {
    name: 'str_replace on a missing file',
    tool: { command: 'str_replace', path: '/memories/missing.md', old_str: 'a', new_str: 'b' },
    message: /The path \/memories\/missing\.md does not exist/,
  },
  {
    name: 'a parent is a file',
    setup: seed('/memories/a.md', 'a'),
    tool: create('/memories/a.md/b.md'),
    message: /\/memories\/a\.md is a file, so it cannot contain other files/,
  },
  {
    name: 'delete a missing path',
    tool: { command: 'delete', path: '/memories/none' },
    message: /^Error: The path \/memories\/none does not exist$/,
  },
  {
    name: 'read of a missing file via the API',
    api: (m) => m.read('/memories/none.md'),
    code: 'not_found',
    message: /The path \/memories\/none\.md does not exist/,
  },
  {
    name: 'diff of an unknown change',
    api: (m) => m.diff('nope'),
    code: 'not_found',
    message: /not in the journal/,
  },
  {
    name: 'revert of an unknown change',
    api: (m) => m.revert('nope'),
    code: 'not_found',
    message: /not in the journal/,
  },
  {
    name: 'history of a bad path',
    api: (m) => m.history('/etc'),
    code: 'invalid_path',
    message: /must start with \/memories\//,
  },
]);

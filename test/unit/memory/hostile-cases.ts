// The table of hostile inputs, by security.md category. Each case may plant something first (as a user
// or attacker with access to the folder would), then makes one call that must be refused with a clear
// message. The test runner checks the message, that no host path leaks, and that nothing outside changed.
import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Memory, MemoryLimits } from '../../../memory/index.js';
import type { Sandbox } from './helpers.js';

export type Category = 'paths' | 'links' | 'content' | 'edits' | 'consistency' | 'errors';

export interface HostileCase {
  category: Category;
  name: string;
  setup?: (s: Sandbox) => Promise<void>;
  /** A raw tool input, or a call on the user API that must reject. */
  tool?: unknown;
  api?: (m: Memory, s: Sandbox) => Promise<unknown>;
  /** The refusal message must match. */
  message: RegExp;
  /** For API calls: the MemoryError code. */
  code?: string;
  limits?: Partial<MemoryLimits>;
}

const inCategory = (category: Category, cases: Omit<HostileCase, 'category'>[]): HostileCase[] =>
  cases.map((c) => ({ ...c, category }));

const mem = (s: Sandbox, ...p: string[]) => path.join(s.dataDir, 'memories', ...p);
const seed = (rel: string, text: string) => async (s: Sandbox) => {
  await s.memory.create(rel, text);
};

const view = (p: unknown) => ({ command: 'view', path: p });
const create = (p: unknown, t = 'x') => ({ command: 'create', path: p, file_text: t });

const pathCases: HostileCase[] = inCategory('paths', [
  {
    name: 'dot-dot traversal',
    tool: view('/memories/../outside/secret.txt'),
    message: /"\." and "\.\." segments/,
  },
  { name: 'dot-dot at the end', tool: create('/memories/a/..'), message: /"\." and "\.\." segments/ },
  { name: 'dot segment', tool: create('/memories/./a.md'), message: /"\." and "\.\." segments/ },
  { name: 'empty segment', tool: create('/memories//a.md'), message: /empty segment/ },
  { name: 'trailing slash on a file', tool: create('/memories/a.md/'), message: /empty segment/ },
  {
    name: 'sibling prefix',
    tool: view('/memoriesX/sibling.md'),
    message: /must be \/memories or start with \/memories\//,
  },
  {
    name: 'sibling prefix create',
    tool: create('/memories-evil/a.md'),
    message: /must be \/memories or start with/,
  },
  { name: 'backslash separator', tool: create('/memories\\..\\outside\\x'), message: /not a backslash/ },
  {
    name: 'percent-encoded dots',
    tool: view('/memories/%2e%2e/outside/secret.txt'),
    message: /"%" is not allowed/,
  },
  { name: 'double percent-encoding', tool: view('/memories/%252e%252e/x'), message: /"%" is not allowed/ },
  { name: 'absolute OS path', tool: view('/etc/passwd'), message: /must start with \/memories\// },
  { name: 'Windows drive path', tool: view('C:/Windows/win.ini'), message: /host paths are not allowed/ },
  { name: 'home path', tool: create('~/x.md'), message: /host paths are not allowed/ },
  { name: 'relative path', tool: create('notes.md'), message: /must start with \/memories\// },
  { name: 'NUL byte', tool: create('/memories/a\u0000.md'), message: /NUL characters/ },
  { name: 'newline in a name', tool: create('/memories/a\nb.md'), message: /control characters/ },
  { name: 'Windows device name', tool: create('/memories/CON.md'), message: /reserved device name/ },
  { name: 'device name lower case', tool: create('/memories/notes/nul'), message: /reserved device name/ },
  { name: 'COM port name', tool: create('/memories/com1.txt'), message: /reserved device name/ },
  { name: 'trailing dot', tool: create('/memories/notes.'), message: /end with a space or a dot/ },
  { name: 'trailing space', tool: create('/memories/notes '), message: /end with a space or a dot/ },
  { name: 'reserved characters', tool: create('/memories/a<b>.md'), message: /characters < > : " \| \? \*/ },
  { name: 'colon (macOS/Windows alias)', tool: create('/memories/a:b.md'), message: /characters < > : / },
  { name: 'fullwidth dots', tool: view('/memories/\uff0e\uff0e/x'), message: /looks like a path character/ },
  {
    name: 'division slash',
    tool: create('/memories/a\u2215b.md'),
    message: /looks like a path separator or a dot/,
  },
  {
    name: 'zero-width space',
    tool: create('/memories/no\u200btes.md'),
    message: /invisible or direction-changing/,
  },
  {
    name: 'right-to-left override',
    tool: create('/memories/\u202egnp.md'),
    message: /invisible or direction-changing/,
  },
  {
    name: 'too deep',
    tool: create('/memories/' + Array(11).fill('d').join('/') + '/x.md'),
    message: /deeper than 10/,
  },
  {
    name: 'segment too long',
    tool: create('/memories/' + 'a'.repeat(200) + '.md'),
    message: /longer than 120 bytes/,
  },
  {
    name: 'hidden name',
    tool: create('/memories/.mnemo-tmp-evil'),
    message: /starting with "\." are reserved/,
  },
  {
    name: 'case-only collision',
    setup: seed('/memories/notes.md', 'a'),
    tool: create('/memories/Notes.md'),
    message: /differs only in letter case or Unicode form from the existing "notes\.md"/,
  },
  {
    name: 'case-only collision of a folder',
    setup: seed('/memories/Work/a.md', 'a'),
    tool: create('/memories/work/b.md'),
    message: /differs only in letter case .* "Work"/,
  },
  {
    name: 'NFD spelling of an existing NFC name',
    setup: seed('/memories/caf\u00e9.md', 'a'),
    tool: create('/memories/cafe\u0301.md'),
    message: /File \/memories\/caf\u00e9\.md already exists/,
  },
  { name: 'not a string', tool: view(42), message: /path: must be a string/ },
  { name: 'lone surrogate', tool: create('/memories/\ud800.md'), message: /broken Unicode/ },
]);

const plantDirLink = async (s: Sandbox) => {
  await symlink(s.outside, mem(s, 'evil'));
};
const plantFileLink = async (s: Sandbox) => {
  await symlink(path.join(s.outside, 'secret.txt'), mem(s, 'link.md'));
};
const plantHardLink = async (s: Sandbox) => {
  await link(path.join(s.outside, 'secret.txt'), mem(s, 'hard.md'));
};

const linkCases: HostileCase[] = inCategory('links', [
  {
    name: 'read through a linked folder',
    setup: plantDirLink,
    tool: view('/memories/evil/secret.txt'),
    message: /symbolic link/,
  },
  {
    name: 'create through a linked folder',
    setup: plantDirLink,
    tool: create('/memories/evil/new.md'),
    message: /\/memories\/evil is a symbolic link/,
  },
  {
    name: 'view a linked file',
    setup: plantFileLink,
    tool: view('/memories/link.md'),
    message: /\/memories\/link\.md is a symbolic link/,
  },
  {
    name: 'str_replace a linked file',
    setup: plantFileLink,
    tool: { command: 'str_replace', path: '/memories/link.md', old_str: 'outside', new_str: 'pwned' },
    message: /symbolic link/,
  },
  {
    name: 'insert into a linked file',
    setup: plantFileLink,
    tool: { command: 'insert', path: '/memories/link.md', insert_line: 0, insert_text: 'x' },
    message: /symbolic link/,
  },
  {
    name: 'create over a linked file',
    setup: plantFileLink,
    tool: create('/memories/link.md'),
    message: /already exists/,
  },
  {
    name: 'view a hard link',
    setup: plantHardLink,
    tool: view('/memories/hard.md'),
    message: /\/memories\/hard\.md is a hard link/,
  },
  {
    name: 'str_replace a hard link',
    setup: plantHardLink,
    tool: { command: 'str_replace', path: '/memories/hard.md', old_str: 'outside', new_str: 'pwned' },
    message: /hard link/,
  },
  {
    name: 'rename a linked file',
    setup: plantFileLink,
    tool: { command: 'rename', old_path: '/memories/link.md', new_path: '/memories/x.md' },
    message: /symbolic link/,
  },
  {
    name: 'rename into a linked folder',
    setup: async (s) => {
      await plantDirLink(s);
      await s.memory.create('/memories/a.md', 'a');
    },
    tool: { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/evil/a.md' },
    message: /\/memories\/evil is a symbolic link/,
  },
  {
    name: 'delete through a linked folder',
    setup: plantDirLink,
    tool: { command: 'delete', path: '/memories/evil/secret.txt' },
    message: /\/memories\/evil is a symbolic link/,
  },
  {
    name: 'user write over a linked file',
    setup: plantFileLink,
    api: (m) => m.write('/memories/link.md', 'x', 'any'),
    code: 'link',
    message: /symbolic link/,
  },
  {
    name: 'user read of a hard link',
    setup: plantHardLink,
    api: (m) => m.read('/memories/hard.md'),
    code: 'link',
    message: /hard link/,
  },
  {
    name: 'linked memory sub-folder made outside',
    setup: async (s) => {
      await mkdir(mem(s, 'real'));
      await symlink(s.outside, mem(s, 'real', 'inner'));
    },
    tool: {
      command: 'str_replace',
      path: '/memories/real/inner/secret.txt',
      old_str: 'outside',
      new_str: 'x',
    },
    message: /symbolic link/,
  },
]);

const secretCase = (name: string, value: string, detector: RegExp): HostileCase => ({
  category: 'content',
  name: `secret: ${name}`,
  tool: create('/memories/creds.md', `# Keys\nmine: ${value}\n`),
  message: detector,
});

const contentCases: HostileCase[] = [
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

const editCases: HostileCase[] = inCategory('edits', [
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

const consistencyCases: HostileCase[] = inCategory('consistency', [
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

const errorCases: HostileCase[] = inCategory('errors', [
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

export const hostileCases: HostileCase[] = [
  ...pathCases,
  ...linkCases,
  ...contentCases,
  ...editCases,
  ...consistencyCases,
  ...errorCases,
];

// The table of hostile inputs, by security.md category: paths and links here, the rest in
// hostile-cases-more.ts. The runner (hostile.test.ts) checks each refusal's message, that no host path
// leaks, and that nothing outside the root changed.
import { link, mkdir, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { consistencyCases, contentCases, editCases, errorCases } from './hostile-cases-more.js';
import { create, inCategory, mem, seed, view, type HostileCase } from './hostile-kit.js';
import type { Sandbox } from './helpers.js';

export type { Category, HostileCase } from './hostile-kit.js';

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

export const hostileCases: HostileCase[] = [
  ...pathCases,
  ...linkCases,
  ...contentCases,
  ...editCases,
  ...consistencyCases,
  ...errorCases,
];

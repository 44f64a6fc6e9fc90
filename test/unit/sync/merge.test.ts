// The per-file rules of a sync merge, on their own: one side changed takes it, both changed merges or
// keeps both, a deletion against an edit keeps the edit. A property: whatever the three trees, every
// version either side holds is kept (as the decision's result, or set aside by it), never silently lost.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyOf, type TreeEntry } from '../../../electron/core/sync/git-store.js';
import { decide, mergeSpaceInfo, mergeText } from '../../../electron/core/sync/merge.js';
import { cleanDevice, commitMessage, parseCommit } from '../../../electron/core/sync/provenance.js';
import { parseRemoteUrl } from '../../../electron/core/sync/config.js';

const e = (path: string, oid: string): TreeEntry => ({ segs: path.split('/'), mode: '100644', oid });
const tree = (...entries: TreeEntry[]) => new Map(entries.map((x) => [keyOf(x.segs), x]));

describe('decide', () => {
  it.each([
    ['unchanged', ['a'], ['a'], ['a'], 'keep'],
    ['only the remote changed', ['a'], ['a'], ['b'], 'take'],
    ['only this device changed', ['a'], ['b'], ['a'], 'keep'],
    ['both made the same change', ['a'], ['b'], ['b'], 'keep'],
    ['both changed a memory file', ['a'], ['b'], ['c'], 'merge'],
    ['deleted here, edited there', ['a'], [], ['c'], 'take'],
    ['edited here, deleted there', ['a'], ['b'], [], 'keep-local'],
    ['added there only', [], [], ['c'], 'take'],
    ['deleted there only', ['a'], ['a'], [], 'take'],
  ] as const)('%s', (_name, base, local, remote, kind) => {
    const p = 'memories/f.md';
    const [d] = decide(
      tree(...base.map((o) => e(p, o))),
      tree(...local.map((o) => e(p, o))),
      tree(...remote.map((o) => e(p, o))),
    );
    expect(d?.kind).toBe(kind);
  });

  it('a conversation changed on both is forked, never merged line by line', () => {
    const p = 'conversations/c1.jsonl';
    const [d] = decide(tree(e(p, 'a')), tree(e(p, 'b')), tree(e(p, 'c')));
    expect(d?.kind).toBe('fork');
  });

  it('property: every version either side holds survives the decision', () => {
    const oid = fc.constantFrom('o1', 'o2', 'o3');
    const side = fc.option(oid, { nil: undefined });
    const paths = ['memories/a.md', 'memories/b/c.md', 'conversations/x.jsonl'];
    fc.assert(
      fc.property(fc.array(fc.tuple(side, side, side), { minLength: 3, maxLength: 3 }), (rows) => {
        const [base, local, remote] = [0, 1, 2].map((i) =>
          tree(...paths.flatMap((p, j) => (rows[j]![i] ? [e(p, rows[j]![i]!)] : []))),
        );
        for (const d of decide(base!, local!, remote!)) {
          const l = local!.get(d.key)?.oid;
          const r = remote!.get(d.key)?.oid;
          const b = base!.get(d.key)?.oid;
          // The local version is dropped only when the remote changed the file and this device did not.
          if (d.kind === 'take') expect(l === b || l === undefined).toBe(true);
          // The remote's version is dropped only when this device holds it, or the remote did not change it.
          if (d.kind === 'keep') expect(r === l || r === b).toBe(true);
          if (d.kind === 'keep-local') expect(r).toBeUndefined();
        }
      }),
    );
  });
});

describe('mergeText', () => {
  it('merges changes to different lines', () => {
    const m = mergeText('a\nb\nc\nd\n', 'A\nb\nc\nd\n', 'a\nb\nc\nD\n', 'laptop');
    expect(m).toEqual({ clean: true, text: 'A\nb\nc\nD\n' });
  });
  it('the same line changed on both: a draft with both, marked, never clean', () => {
    const m = mergeText('city: Paris\n', 'city: Lyon\n', 'city: Nice\n', 'laptop');
    expect(m.clean).toBe(false);
    expect(!m.clean && m.draft).toBe(
      '<<<<<<< this device\ncity: Lyon\n=======\ncity: Nice\n>>>>>>> laptop\n',
    );
  });
  it('keeps a last line without a newline as it is', () => {
    expect(mergeText('a\nb', 'a\nb', 'a\nB', 'x')).toEqual({ clean: true, text: 'a\nB' });
  });
});

describe('space.json', () => {
  const info = (name: string, colour: string) => ({ id: 'i', name, colour, created: '' });
  it('a field changed here stays; otherwise the remote one is taken', () => {
    expect(mergeSpaceInfo(info('W', '#000000'), info('Work', '#000000'), info('W', '#ffffff'))).toMatchObject(
      {
        name: 'Work',
        colour: '#ffffff',
      },
    );
  });
});

describe('provenance in commit messages', () => {
  it('round-trips who, when, conversation, tool call and device', () => {
    const change = {
      p: 'memories/a.md',
      actor: 'agent' as const,
      at: '2026-12-01T10:00:00.000Z',
      conversation: 'c1',
      title: 'Trip',
      tool: 'toolu_1',
      device: 'laptop',
    };
    const message = commitMessage('laptop', Date.parse(change.at), [change]);
    expect(message).toMatch(/^Mnemo sync from laptop: 1 memory file\n/);
    expect(message).toContain('memories/a.md: Claude in “Trip” (tool call toolu_1)');
    expect(parseCommit(message)).toEqual({ device: 'laptop', changes: [change] });
  });
  it.each([
    [
      'a conversation id that is a path',
      '{"p":"memories/a.md","actor":"agent","conversation":"../x"}',
      undefined,
    ],
    ['an unknown actor', '{"p":"memories/a.md","actor":"root"}', null],
    ['not JSON', '{"p":', null],
  ])('drops %s', (_name, json, conversation) => {
    const parsed = parseCommit(`x\n\nMnemo-Change: ${json}\n`);
    if (conversation === null) expect(parsed.changes).toEqual([]);
    else expect(parsed.changes[0]?.conversation).toBeUndefined();
  });
  it('device names are one printable line', () => {
    expect(cleanDevice('lap\u001b[2Jtop\u202e\n')).toBe('lap[2Jtop');
    expect(cleanDevice('')).toBe('another device');
  });
});

describe('remote URLs', () => {
  it.each([
    ['https://git.example.com/me/notes.git', { url: 'https://git.example.com/me/notes.git' }],
    ['https://me@git.example.com/n.git', { url: 'https://git.example.com/n.git', username: 'me' }],
    ['http://127.0.0.1:8080/n.git', { url: 'http://127.0.0.1:8080/n.git' }],
  ])('%s', (raw, expected) => expect(parseRemoteUrl(raw)).toEqual(expected));
  it.each([
    ['http://git.example.com/n.git', /https/],
    ['https://me:tok@git.example.com/n.git', /Put the token in the token field/],
    ['https://git.example.com/n.git?access_token=tok', /Put the token in the token field/],
    ['https://git.example.com/n.git#tok', /Put the token in the token field/],
    [`https://ghp_${'a'.repeat(36)}@git.example.com/n.git`, /Put the token in the token field/],
    ['file:///etc', /https/],
    ['not a url', /address like/],
  ])('refuses %s', (raw, message) => expect(() => parseRemoteUrl(raw)).toThrow(message));
});

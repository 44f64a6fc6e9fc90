import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrubHostPaths, stripStack } from '../../../electron/core/rpc/scrub.js';

describe('scrubHostPaths', () => {
  const scrubbed: Array<[string, string]> = [
    [
      "ENOENT: no such file or directory, open '/home/alice/.config/Mnemo/config.json'",
      "ENOENT: no such file or directory, open '<path>'",
    ],
    ['failed at /tmp/mnemo-abc/x.txt today', 'failed at <path> today'],
    ['EACCES /Users/bob/Library/Application Support/Mnemo', 'EACCES <path> Support/Mnemo'],
    ['"/Users/bob/Library/Application Support/Mnemo/a b.json" is locked', '"<path>" is locked'],
    ['cannot read C:\\Users\\carol\\AppData\\Roaming\\Mnemo\\config.json', 'cannot read <path>'],
    ['cannot read C:/Users/carol/AppData', 'cannot read <path>'],
    ['share \\\\server\\share\\folder\\file.txt failed', 'share <path> failed'],
    ['see file:///home/alice/x.md', 'see <path>'],
    ['in ~/notes/secret.md', 'in <path>'],
    ['(/var/lib/mnemo/x)', '(<path>)'],
    ["path='/root/.ssh/id_rsa'", "path='<path>'"],
  ];
  it.each(scrubbed)('scrubs %j', (input, expected) => {
    expect(scrubHostPaths(input)).toBe(expected);
  });

  const kept = [
    'The file /memories/notes/today.md does not exist.',
    'Rename /memories/a.md to /memories/b.md first.',
    'See https://docs.example.com/a/b/c for details.',
    'Connect to http://127.0.0.1:8080/v1/messages failed',
    'A relative path like notes/today.md is fine',
    'Use a value between 1/2 and 3/4.',
    'Type a message first.',
    '/memories',
  ];
  it.each(kept)('keeps %j', (input) => {
    expect(scrubHostPaths(input)).toBe(input);
  });

  it('leaves no /home/ or /tmp/ path in any message that embeds one (property)', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('/home/', '/tmp/', '/Users/', '/var/folders/'),
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('', 'open ', "open '", 'at (', 'ERR: '),
        fc.constantFrom('', "'", ')', '.', ' and more'),
        (root, segments, before, after) => {
          const message = `${before}${root}${segments.join('/')}${after}`;
          const out = scrubHostPaths(message);
          expect(out).not.toContain(root);
          expect(out).toContain('<path>');
          expect(scrubHostPaths(out)).toBe(out);
        },
      ),
    );
  });
});

describe('stripStack', () => {
  it('drops an appended stack trace', () => {
    const error = new Error('boom');
    expect(stripStack(error.stack!)).toBe('Error: boom');
  });
  it('keeps a message without a stack', () => {
    expect(stripStack('plain\nsecond line')).toBe('plain\nsecond line');
  });
});

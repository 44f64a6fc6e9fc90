import { describe, expect, it } from 'vitest';
import {
  changedLines,
  detectAddedSecret,
  everyDetector,
  firstMatch,
  normalizeForScan,
} from '../../../memory/secrets.js';
import { detectors } from '../../../memory/secret-patterns.js';
import { detectSecret } from '../../../memory/index.js';
import { fullWidth, mustAccept, mustRefuse } from './secret-values.js';
import fc from 'fast-check';

describe('secret detectors', () => {
  it.each(mustAccept)('lets ordinary notes through: %s', (text) => {
    expect(detectSecret(text)).toBeNull();
    expect(detectSecret(`# Notes\n\n- ${text}\n`)).toBeNull();
  });

  it.each(mustRefuse)('refuses %s and names it, on its line', (_label, value, detector) => {
    expect(detectSecret(`# Notes\n${value}\n`)).toEqual({ detector, line: 2 });
    // the same inside a sentence, after other lines
    expect(detectSecret(`a\nb\nc\nnote: ${value} (rotated in May)`)).toEqual({ detector, line: 4 });
  });

  it('property: invisible characters anywhere in a key, or full-width forms, never hide it', () => {
    const plain = mustRefuse.filter(([label]) => !/split|full-width|joiners|selectors|BOM|tag/.test(label));
    const invisible = fc.constantFrom(
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\u00ad',
      '\u200e',
      '\u202e',
      '\ufe0f',
      '\ufeff',
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...plain),
        fc.array(fc.tuple(fc.nat(), invisible), { maxLength: 6 }),
        fc.boolean(),
        ([, value, detector], marks, wide) => {
          let text = wide ? fullWidth(value) : value;
          for (const [at, mark] of marks) {
            const i = at % (text.length + 1);
            text = text.slice(0, i) + mark + text.slice(i);
          }
          expect(detectSecret(`x\n${text}\n`)).toEqual({ detector, line: 2 });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('names the detector and the line, and returns nothing of the value', () => {
    const value = 'ghp_' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed9Cb8A';
    const finding = detectSecret(`notes\n\nrepo token ${value}\n`);
    expect(finding).toEqual({ detector: 'a GitHub token', line: 3 });
    expect(JSON.stringify(finding)).not.toContain(value.slice(4, 12));
  });

  it('normalisation drops invisible characters and folds full-width forms, keeping every line break', () => {
    expect(normalizeForScan('g\u200bh\u00adp\u200e_\ufe0fｘ\u2060')).toBe('ghp_x');
    const text = 'a\u200b\nｂ\r\n\u202ec\n';
    expect(normalizeForScan(text).split('\n')).toHaveLength(text.split('\n').length);
  });

  it('ASCII text is its own scan form (the shortcut that skips the normalisation for it)', () => {
    const full = (t: string): string =>
      t
        .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
        .normalize('NFKC')
        .replace(/\p{Default_Ignorable_Code_Point}/gu, '');
    const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('');
    for (const ch of ascii) expect(full(ch)).toBe(ch);
    expect(normalizeForScan(ascii)).toBe(ascii);
    // One character past ASCII takes the whole text through the normalisation.
    expect(normalizeForScan(`${ascii}\u00ad\u00bd`)).toBe(full(`${ascii}\u00ad\u00bd`));
  });

  it('the one-pass prefilter of short texts finds what the detectors one by one find', () => {
    const pieces = [...mustRefuse.map(([, v]) => v), ...mustAccept].flatMap((v) => [
      v,
      v.slice(0, 12),
      v.slice(-20),
    ]);
    const text = fc
      .array(
        fc.oneof(
          fc.constantFrom(...pieces),
          fc.string({ maxLength: 8 }),
          fc.constantFrom(' ', '\n', '=', ':'),
        ),
        {
          maxLength: 6,
        },
      )
      .map((parts) => normalizeForScan(parts.join('')));
    fc.assert(
      fc.property(text, (t) => {
        expect(firstMatch(t)).toEqual(everyDetector(t));
      }),
      { numRuns: 3000 },
    );
    for (const [, value, detector] of mustRefuse)
      if (value.length <= 2048) expect(firstMatch(normalizeForScan(value))?.detector).toBe(detector);
    // Each detector's own match, alone (where often no other detector fires): the prefilter lets it by.
    for (const d of detectors) {
      const m = mustRefuse.map(([, v]) => d.pattern.exec(normalizeForScan(v))).find(Boolean);
      if (m) expect(firstMatch(m[0])).toEqual(everyDetector(m[0]));
    }
    expect(firstMatch('-----BEGIN RSA PRIVATE KEY-----')).toEqual({
      detector: 'a private key block',
      index: 0,
    });
  });

  it('reports the earliest match when several detectors fire', () => {
    const text = `x\nAKIA${'IOSFODNN7EXAMPLE'}\npostgres://u:p@h\n`;
    expect(detectSecret(text)).toEqual({ detector: 'an AWS access key', line: 2 });
  });
});

describe('the changed lines of an edit', () => {
  it('are the lines of the new text that the edit touched, numbered in the new text', () => {
    expect(changedLines('a\nb\nc', 'a\nB\nc')).toEqual({ lines: ['B'], numbers: [2] });
    expect(changedLines('a\nc', 'a\nb1\nb2\nc')).toEqual({ lines: ['b1', 'b2'], numbers: [2, 3] });
    expect(changedLines('ab', 'ab')).toEqual({ lines: [], numbers: [] });
    // a deletion inside a line joins what is left of it: that line is changed
    expect(changedLines('x\nghp_AB CD\ny', 'x\nghp_ABCD\ny')).toEqual({ lines: ['ghp_ABCD'], numbers: [2] });
    // removing whole lines changes no line that remains
    expect(changedLines('a\nb\nc\n', 'a\nc\n').lines).toEqual([]);
  });

  it('catch a key completed by a later edit, and ignore an old key on a line the edit left alone', () => {
    const key = 'glpat-' + 'Qw3rTy7uIo9pAs2dFg4h';
    const half = `# Deploy\ntoken ${key.slice(0, 12)}\n`;
    expect(detectAddedSecret('', half)).toBeNull();
    expect(detectAddedSecret(half, half.replace(key.slice(0, 12), key))).toEqual({
      detector: 'a GitLab token',
      line: 2,
    });
    const planted = `old ${key}\nnotes\n`;
    expect(detectAddedSecret(planted, planted.replace('notes', 'more notes'))).toBeNull();
    expect(detectAddedSecret(planted, planted + 'new line\n')).toBeNull();
  });

  it('property: the changed lines are exactly what a line-by-line comparison says can differ', () => {
    const lineArb = fc.constantFrom('a', 'b', 'ab', '', 'c d');
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 8 }), fc.array(lineArb, { maxLength: 8 }), (x, y) => {
        const before = x.join('\n');
        const after = y.join('\n');
        const { lines, numbers } = changedLines(before, after);
        // every reported line is a line of the new text, at the number given
        numbers.forEach((n, i) => expect(after.split('\n')[n - 1]).toBe(lines[i]));
        // every line of the new text that is not a line of the old text is reported
        const old = new Set(before.split('\n'));
        after.split('\n').forEach((l, i) => {
          if (before !== after && !old.has(l)) expect(numbers).toContain(i + 1);
        });
      }),
    );
  });
});

describe('the JSON Web Token detector', () => {
  // The table's JWT detector scans runs of base64url and dots (a direct regex backtracks quadratically); it
  // must find exactly what the direct regex finds.
  const direct = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;
  const jwt = detectors.find((d) => d.name === 'a JSON Web Token')!;
  const finds = (text: string): boolean => {
    const re = new RegExp(jwt.pattern.source, 'g');
    for (let m = re.exec(text); m; m = re.exec(text)) if (jwt.accept!(m)) return true;
    return false;
  };

  it('property: agrees with the direct regex', () => {
    const h = 'eyJhbGciOiJI';
    for (const text of [
      `${h}.${h}.abcdefgh`,
      `x-${h}.${h}.abcdefgh`,
      `a.${h}.${h}.sig-sig_`,
      `x${h}.${h}.abcdefgh`,
    ])
      expect([text, finds(text)]).toEqual([text, direct.test(text)]);
    expect(finds(`x-${h}.${h}.abcdefgh`)).toBe(true);
    expect(finds(`x${h}.${h}.abcdefgh`)).toBe(false);
    const piece = fc.constantFrom('eyJ', 'abcdefgh', 'eyJabcdefgh.', 'a', '-', '.', '_', ' ', 'x.eyJ', '9');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        expect(finds(text)).toBe(direct.test(text));
      }),
      { numRuns: 2000 },
    );
  });
});

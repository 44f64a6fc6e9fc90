// Credential detection. A memory file is sent back to the model and may be exported, so text that looks like
// a secret is refused. The refusal names the detector and the line, never the matched value.
//
// What is scanned: the lines an edit changes, in the text as it will be after the edit. Scanning only what
// the edit adds (new_str, insert_text) lets a key through in pieces (a create with half of it, then a
// str_replace that adds the rest); scanning every line would let one old key, planted by another program,
// block every later edit of that file. A line the edit leaves as it was is not scanned.
//
// The text is normalised before it is scanned, so a key cannot hide behind its look-alikes: invisible
// characters (zero-width spaces and joiners, soft hyphens, bidi marks, variation selectors, tag characters:
// Unicode's Default_Ignorable_Code_Point set) are dropped and compatibility forms are folded by NFKC
// (full-width "ｇｈｐ＿" becomes "ghp_"). Neither step adds or removes a line break, so line numbers hold.
import { detectors } from './secret-patterns.js';

export interface SecretFinding {
  /** e.g. "an AWS access key" */
  detector: string;
  /** 1-based line of the first match. */
  line: number;
}

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
// eslint-disable-next-line no-control-regex -- every ASCII character, controls included
const ASCII = /^[\x00-\x7f]*$/;

/** The text a detector sees: no invisible characters, compatibility forms folded (NFKC). */
export function normalizeForScan(text: string): string {
  // ASCII holds no invisible character and is its own NFKC form: most names and notes skip both steps.
  if (ASCII.test(text)) return text;
  return text.replace(INVISIBLE, '').normalize('NFKC').replace(INVISIBLE, '');
}

const global = detectors.map((d) => ({
  ...d,
  pattern: new RegExp(
    d.pattern.source,
    d.pattern.flags.includes('g') ? d.pattern.flags : d.pattern.flags + 'g',
  ),
}));

/**
 * Every detector's pattern in one alternation per set of flags: a text none of them matches has no match
 * of any detector, found in one pass instead of one per detector. Only for short texts (a name, the lines
 * of a small edit: ~0.4 µs against ~4 µs for a new file name, bench/memory), where a miss is the rule;
 * a long text often holds something a pattern matches and its `accept` then refuses (a long word is a
 * JSON Web Token candidate), and would pay for both passes.
 */
const anyMatch = [...new Set(detectors.map((d) => d.pattern.flags.replace('g', '')))].map(
  (flags) =>
    new RegExp(
      detectors
        .filter((d) => d.pattern.flags.replace('g', '') === flags)
        .map((d) => `(?:${d.pattern.source})`)
        .join('|'),
      flags,
    ),
);
const PREFILTER_MAX = 2048;

/** The detector and offset of the earliest match in `text` (already normalised), or null. */
export function firstMatch(text: string): { detector: string; index: number } | null {
  if (text.length <= PREFILTER_MAX && !anyMatch.some((re) => re.test(text))) return null;
  return everyDetector(text);
}

/** firstMatch without the prefilter: each detector in turn. */
export function everyDetector(text: string): { detector: string; index: number } | null {
  let best: { detector: string; index: number } | null = null;
  for (const d of global) {
    const re = d.pattern;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (best && m.index >= best.index) break;
      if (!d.accept || d.accept(m)) {
        best = { detector: d.name, index: m.index };
        break;
      }
      if (m[0].length === 0) re.lastIndex++;
    }
  }
  return best;
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The first credential-looking match in `text`, or null. Never returns the matched value. */
export function detectSecret(text: string): SecretFinding | null {
  return detectAddedSecret('', text);
}

/** The lines of `after` that an edit of `before` changed (1-based numbers), in one linear pass. */
export function changedLines(before: string, after: string): { lines: string[]; numbers: number[] } {
  if (before === after) return { lines: [], numbers: [] };
  const max = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < max && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < max - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  )
    suffix++;
  // The same line start in both texts (they agree up to `prefix`); each region ends at the end of the line
  // holding its last changed character.
  const start = prefix === 0 ? 0 : after.lastIndexOf('\n', prefix - 1) + 1;
  const lineEnd = (s: string): number => {
    const nl = s.indexOf('\n', s.length - suffix);
    return nl === -1 ? s.length : nl;
  };
  const old = new Set(before.slice(start, lineEnd(before)).split('\n'));
  const lines: string[] = [];
  const numbers: number[] = [];
  let line = 1 + countNewlines(after, start);
  for (const l of after.slice(start, lineEnd(after)).split('\n')) {
    if (!old.has(l)) {
      lines.push(l);
      numbers.push(line);
    }
    line++;
  }
  return { lines, numbers };
}

/** The first credential-looking match on a line the edit from `before` to `after` changed, or null. */
export function detectAddedSecret(before: string, after: string): SecretFinding | null {
  const { lines, numbers } = changedLines(before, after);
  if (lines.length === 0) return null;
  const text = normalizeForScan(lines.join('\n'));
  const found = firstMatch(text);
  if (!found) return null;
  return { detector: found.detector, line: numbers[countNewlines(text, found.index)] ?? 1 };
}

// Finding a forgotten memory file's content in other text (a tool result, the backfill, a note, a summary,
// the model's own words) and replacing it with FORGOTTEN.
//
// What counts as the file's content, so that unrelated text stays as it was:
// - a substantial passage: a line of some version that, trimmed and without its list marker, is at least
//   SUBSTANTIAL_CHARS long and is not a heading or a rule, and each such sentence of a longer line. Twenty characters of exact text are very
//   unlikely to occur by chance in unrelated text, while short lines ("- yes", "TODO") and headings
//   ("## Preferences") are words and structure that other notes and answers share: redacting those would
//   erase text the user did not forget. A passage is replaced wherever it occurs, even inside a sentence;
// - a run of lines of the file (numbered as `view` shows them, or not) around a substantial passage: the
//   short lines inside a quoted block go with it, short lines standing alone do not;
// - a whole version that has no substantial line but is SUBSTANTIAL_CHARS long in all.
export const FORGOTTEN = '[forgotten by the user]';
export const SUBSTANTIAL_CHARS = 20;

const LIST_MARKER = /^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/;
/** `view`'s line numbers: right-aligned in 6 columns, then a tab. */
const VIEW_NUMBER = /^\s*\d+\t/;

function passageOf(line: string): string {
  return line.trim().replace(LIST_MARKER, '').trim();
}

/** A line, and its sentences when it has several (a model quotes a sentence of a paragraph). */
function piecesOf(passage: string): string[] {
  const sentences = passage.split(/(?<=[.!?;:])\s+/);
  return sentences.length > 1 ? [passage, ...sentences] : [passage];
}

function isSubstantial(passage: string): boolean {
  if (passage.length < SUBSTANTIAL_CHARS) return false;
  if (/^#{1,6}\s/.test(passage)) return false;
  // A rule, a table separator, a fence: punctuation only.
  return /[\p{L}\p{N}]/u.test(passage);
}

export interface ForgottenMatcher {
  /** Nothing to look for (every version was empty). */
  readonly empty: boolean;
  /** The text with every forgotten passage replaced; the same string when there was none. */
  redact(text: string): string;
  /**
   * Whether JSON text (a file's raw lines) may hold a forgotten passage in one of its strings: false
   * means none of its strings would change, so the file need not be parsed.
   */
  mayOccurInJson(raw: string): boolean;
}

/**
 * `kept`: contents that stay (the other memory files): a passage they share with the forgotten file is
 * theirs as much as its, so it is not redacted from free text (results of calls on the forgotten file
 * still go whole).
 */
export function forgottenMatcher(
  versions: readonly string[],
  kept: readonly string[] = [],
): ForgottenMatcher {
  const keptWhole = new Set(kept.map((v) => v.replace(/\r\n/g, '\n').trim()));
  const keptPassages = new Set(kept.flatMap((v) => v.split(/\r?\n/).flatMap((l) => piecesOf(passageOf(l)))));
  const fileLines = new Set<string>();
  const passages = new Set<string>();
  for (const v of versions)
    for (const line of v.split(/\r?\n/)) {
      const p = passageOf(line);
      if (p === '') continue;
      fileLines.add(p);
      for (const piece of piecesOf(p))
        if (isSubstantial(piece) && !keptPassages.has(piece)) passages.add(piece);
    }
  // A version with a substantial line is found by its lines (runs and passages); whole copies are looked
  // for only of the versions without one (a file of short lines, 20 characters or more in all).
  const whole = [...new Set(versions.map((v) => v.replace(/\r\n/g, '\n').trim()))]
    .filter((v) => !keptWhole.has(v) && v.length >= SUBSTANTIAL_CHARS)
    .filter((v) => !v.split('\n').some((l) => isSubstantial(passageOf(l))))
    .sort((a, b) => b.length - a.length);
  const plain = heads([...passages]);
  // In JSON a string's characters are escaped one by one: an escaped passage is a substring of the line.
  const escaped = heads([...passages].map((p) => JSON.stringify(p).slice(1, -1)));
  const escapedWhole = whole.map((v) => JSON.stringify(v).slice(1, -1));

  const replaceWhole = (text: string): string => {
    let out = text;
    for (const v of whole) if (out.includes(v)) out = out.split(v).join(FORGOTTEN);
    return out;
  };

  const replaceRuns = (text: string): string => {
    const lines = text.split('\n');
    const keyOf = (line: string): string => passageOf(line.replace(VIEW_NUMBER, ''));
    const out: string[] = [];
    for (let i = 0; i < lines.length;) {
      let j = i;
      let substantial = false;
      // A run: consecutive lines each of which is a line of the file (blank lines may sit inside it).
      while (j < lines.length) {
        const key = keyOf(lines[j]!);
        if (key === '' ? j === i : !fileLines.has(key)) break;
        if (passages.has(key)) substantial = true;
        j++;
      }
      if (substantial) {
        let end = j;
        while (end > i && keyOf(lines[end - 1]!) === '') end--;
        out.push(FORGOTTEN);
        for (let k = end; k < j; k++) out.push(lines[k]!);
        i = j;
      } else {
        // No line of this run is substantial, nor of any run inside it: keep it all.
        for (let k = i; k < Math.max(j, i + 1); k++) out.push(lines[k]!);
        i = Math.max(j, i + 1);
      }
    }
    return out.join('\n');
  };

  const replacePassages = (text: string): string => {
    let out = '';
    let from = 0;
    scan(plain, text, (i, hit) => {
      out += text.slice(from, i) + FORGOTTEN;
      from = i + hit.length;
      return true;
    });
    return from === 0 ? text : out + text.slice(from);
  };

  return {
    empty: whole.length === 0 && passages.size === 0,
    redact(text: string): string {
      if (text.length < SUBSTANTIAL_CHARS) return text;
      const next = collapse(replacePassages(replaceRuns(replaceWhole(text))));
      return next === text ? text : next;
    },
    mayOccurInJson(raw: string): boolean {
      if (escapedWhole.some((v) => raw.includes(v))) return true;
      let found = false;
      scan(escaped, raw, () => {
        found = true;
        return false;
      });
      return found;
    },
  };
}

interface Heads {
  /** Passages by the rolling hash of their first SUBSTANTIAL_CHARS characters, longest first. */
  byHash: Map<number, string[]>;
  /** The hashes' low 16 bits: at most positions the scan stops here. */
  seen: Uint8Array;
}

function heads(passages: readonly string[]): Heads {
  const byHash = new Map<number, string[]>();
  const seen = new Uint8Array(1 << 16);
  for (const p of [...passages].sort((a, b) => b.length - a.length)) {
    const h = headHash(p, 0);
    seen[h & 0xffff] = 1;
    const list = byHash.get(h);
    if (list) list.push(p);
    else byHash.set(h, [p]);
  }
  return { byHash, seen };
}

/**
 * One pass over `text` (a string compare only where a hash matches), whatever the number of passages:
 * `onHit(at, passage)` for each occurrence, left to right without overlaps; it returns false to stop.
 */
function scan(heads: Heads, text: string, onHit: (at: number, passage: string) => boolean): void {
  if (heads.byHash.size === 0 || text.length < SUBSTANTIAL_CHARS) return;
  const { byHash, seen } = heads;
  let h = headHash(text, 0);
  for (let i = 0; i + SUBSTANTIAL_CHARS <= text.length;) {
    const hit = seen[h & 0xffff] === 0 ? undefined : byHash.get(h)?.find((p) => text.startsWith(p, i));
    if (hit) {
      if (!onHit(i, hit)) return;
      i += hit.length;
      if (i + SUBSTANTIAL_CHARS <= text.length) h = headHash(text, i);
    } else {
      if (i + SUBSTANTIAL_CHARS < text.length)
        h = roll(h, text.charCodeAt(i), text.charCodeAt(i + SUBSTANTIAL_CHARS));
      i++;
    }
  }
}

const BASE = 31;
/** BASE^(SUBSTANTIAL_CHARS - 1), modulo 2^32. */
const TOP = (() => {
  let x = 1;
  for (let i = 1; i < SUBSTANTIAL_CHARS; i++) x = Math.imul(x, BASE) >>> 0;
  return x;
})();

/** The hash of the SUBSTANTIAL_CHARS characters of `s` from `at` (modulo 2^32). */
function headHash(s: string, at: number): number {
  let h = 0;
  for (let i = at; i < at + SUBSTANTIAL_CHARS; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) >>> 0;
  return h;
}

/** The next window's hash: drop `out`, add `next`. */
function roll(h: number, out: number, next: number): number {
  return (Math.imul((h - Math.imul(out, TOP)) >>> 0, BASE) + next) >>> 0;
}

/** Markers side by side (a run next to a whole copy) read as one. */
function collapse(text: string): string {
  const twice = `${FORGOTTEN}\n${FORGOTTEN}`;
  let out = text;
  while (out.includes(twice)) out = out.split(twice).join(FORGOTTEN);
  while (out.includes(FORGOTTEN + FORGOTTEN)) out = out.split(FORGOTTEN + FORGOTTEN).join(FORGOTTEN);
  return out;
}

// Case-insensitive literal matching that keeps offsets: the folded text has exactly the length of the
// original, so a match found in the folded copy is a range in the original line (for highlighting).

/** Lower-case without changing length (a character whose lower case is longer, like "İ", stays as it is). */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

export interface LineHit {
  /** 1-based line number. */
  line: number;
  snippet: string;
  /** [start, end) within the snippet. */
  ranges: [number, number][];
}

/** Longest snippet we return; long lines are cut to a window around the first match. */
export const SNIPPET_CHARS = 240;
const LEAD = 60;

function lineNumberAt(folded: string, offset: number, cache: { offset: number; line: number }): number {
  // Hits arrive in increasing order, so count newlines from the previous hit only.
  let line = cache.line;
  for (let i = folded.indexOf('\n', cache.offset); i !== -1 && i < offset; i = folded.indexOf('\n', i + 1)) {
    line++;
  }
  cache.offset = offset;
  cache.line = line;
  return line;
}

/**
 * Every line of `content` containing `foldedQuery`, in order. `onHit` returns false to stop early (limit
 * reached and counting done).
 */
export function findInText(
  content: string,
  folded: string,
  foldedQuery: string,
  onHit: (hit: LineHit) => boolean,
): void {
  if (foldedQuery === '') return;
  const cache = { offset: 0, line: 1 };
  let at = folded.indexOf(foldedQuery);
  while (at !== -1) {
    const lineStart = folded.lastIndexOf('\n', at - 1) + 1;
    let lineEnd = folded.indexOf('\n', at);
    if (lineEnd === -1) lineEnd = folded.length;
    const line = lineNumberAt(folded, lineStart, cache);
    const ranges: [number, number][] = [];
    let next = at;
    while (next !== -1 && next + foldedQuery.length <= lineEnd) {
      ranges.push([next - lineStart, next - lineStart + foldedQuery.length]);
      next = folded.indexOf(foldedQuery, next + foldedQuery.length);
    }
    let text = content.slice(lineStart, lineEnd);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (!onHit({ line, ...clip(text, ranges) })) return;
    // The query has no line break, so the next match starts on a later line.
    at = next;
  }
}

/** Cut a long line to a window around its first match, moving the ranges with it. */
function clip(text: string, ranges: [number, number][]): { snippet: string; ranges: [number, number][] } {
  if (text.length <= SNIPPET_CHARS) return { snippet: text, ranges };
  const first = ranges[0]?.[0] ?? 0;
  const start = Math.max(0, Math.min(first - LEAD, text.length - SNIPPET_CHARS));
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  const prefix = start > 0 ? '…' : '';
  const suffix = end < text.length ? '…' : '';
  const shift = prefix.length - start;
  const inside = ranges
    .filter(([s, e]) => e > start && s < end)
    .map(([s, e]): [number, number] => [Math.max(s, start) + shift, Math.min(e, end) + shift]);
  return { snippet: prefix + text.slice(start, end) + suffix, ranges: inside };
}

/** How many lines of `folded` contain `foldedQuery`, stopping at `cap`. */
export function countLines(folded: string, foldedQuery: string, cap: number): number {
  return countFrom(folded, foldedQuery, 0, cap);
}

/** Matching lines after the 1-based line `line` (the rest of a file once the limit is reached). */
export function countLinesAfter(folded: string, foldedQuery: string, line: number, cap: number): number {
  let at = 0;
  for (let l = 1; l <= line && at !== -1; l++) {
    const nl = folded.indexOf('\n', at);
    at = nl === -1 ? -1 : nl + 1;
  }
  return at === -1 ? 0 : countFrom(folded, foldedQuery, at, cap);
}

function countFrom(folded: string, foldedQuery: string, from: number, cap: number): number {
  if (foldedQuery === '') return 0;
  let count = 0;
  let at = folded.indexOf(foldedQuery, from);
  while (at !== -1 && count < cap) {
    count++;
    const nl = folded.indexOf('\n', at + foldedQuery.length);
    if (nl === -1) break;
    at = folded.indexOf(foldedQuery, nl + 1);
  }
  return count;
}

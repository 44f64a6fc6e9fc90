// Finding a forgotten memory file's content in other text (a tool result, the backfill, a note, a summary,
// the model's own words) and replacing it with FORGOTTEN.
//
// What counts as the file's content, so that unrelated text stays as it was:
// - a whole version of the file, wherever it appears (the backfill and notes quote files whole);
// - a substantial passage: a line of some version that, trimmed and without its list marker, is at least
//   SUBSTANTIAL_CHARS long and is not a heading or a rule. Twenty characters of exact text are very
//   unlikely to occur by chance in unrelated text, while short lines ("- yes", "TODO") and headings
//   ("## Preferences") are words and structure that other notes and answers share: redacting those would
//   erase text the user did not forget. A passage is replaced wherever it occurs, even inside a sentence;
// - a run of lines of the file (numbered as `view` shows them, or not) around a substantial passage: the
//   short lines inside a quoted block go with it, short lines standing alone do not.
export const FORGOTTEN = '[forgotten by the user]';
export const SUBSTANTIAL_CHARS = 20;

const LIST_MARKER = /^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/;
/** `view`'s line numbers: right-aligned in 6 columns, then a tab. */
const VIEW_NUMBER = /^\s*\d+\t/;

function passageOf(line: string): string {
  return line.trim().replace(LIST_MARKER, '').trim();
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
  const keptPassages = new Set(kept.flatMap((v) => v.split(/\r?\n/).map(passageOf)));
  const whole = [...new Set(versions.map((v) => v.replace(/\r\n/g, '\n').trim()))]
    .filter((v) => !keptWhole.has(v))
    .filter((v) => v.length >= SUBSTANTIAL_CHARS || isSubstantial(passageOf(v)))
    .sort((a, b) => b.length - a.length);
  const fileLines = new Set<string>();
  const passages = new Set<string>();
  for (const v of versions)
    for (const line of v.split(/\r?\n/)) {
      const p = passageOf(line);
      if (p === '') continue;
      fileLines.add(p);
      if (isSubstantial(p) && !keptPassages.has(p)) passages.add(p);
    }
  // Passages by their first SUBSTANTIAL_CHARS characters: one scan of the text finds every occurrence.
  const byHead = new Map<string, string[]>();
  for (const p of [...passages].sort((a, b) => b.length - a.length)) {
    const head = p.slice(0, SUBSTANTIAL_CHARS);
    const list = byHead.get(head);
    if (list) list.push(p);
    else byHead.set(head, [p]);
  }

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
    if (byHead.size === 0 || text.length < SUBSTANTIAL_CHARS) return text;
    let out = '';
    let from = 0;
    for (let i = 0; i + SUBSTANTIAL_CHARS <= text.length;) {
      const list = byHead.get(text.slice(i, i + SUBSTANTIAL_CHARS));
      const hit = list?.find((p) => text.startsWith(p, i));
      if (hit) {
        out += text.slice(from, i) + FORGOTTEN;
        i += hit.length;
        from = i;
      } else i++;
    }
    return out + text.slice(from);
  };

  return {
    empty: whole.length === 0 && passages.size === 0,
    redact(text: string): string {
      if (text.length < SUBSTANTIAL_CHARS) return text;
      const next = collapse(replacePassages(replaceRuns(replaceWhole(text))));
      return next === text ? text : next;
    },
  };
}

/** Markers side by side (a run next to a whole copy) read as one. */
function collapse(text: string): string {
  const twice = `${FORGOTTEN}\n${FORGOTTEN}`;
  let out = text;
  while (out.includes(twice)) out = out.split(twice).join(FORGOTTEN);
  while (out.includes(FORGOTTEN + FORGOTTEN)) out = out.split(FORGOTTEN + FORGOTTEN).join(FORGOTTEN);
  return out;
}

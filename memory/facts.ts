// Facts: a Markdown memory file split into the things the panel lets a person forget one at a time.
//
// Decisions (the README repeats them):
// - A list item is a fact (bullets, ordered items, task items), with its continuation lines. A nested item is
//   a fact of its own (depth + parentId), so a sub-point can be forgotten alone; forgetting an item forgets
//   its nested items with it, since they would otherwise silently re-attach to the item above.
// - A paragraph is a fact; so are a fenced code block, a block quote and a table (each as one block).
// - A heading is structure. It is listed (kind 'heading') so the panel can group facts, and it can be
//   removed only once its section holds no facts: forgetting a heading never takes facts with it.
// - Front matter and thematic breaks (---) are neither facts nor removable.
// - removeFact deletes exactly the fact's lines (plus one blank separator, so no double gaps remain):
//   every other fact stays byte-identical. Ordered lists are not renumbered (Markdown renders them in order
//   anyway, and renumbering would change the bytes of the other items).
// - Ids are the hash of the fact's kind and text plus its occurrence among identical facts: an id survives
//   edits elsewhere in the file, and two identical facts still get distinct ids.
import { hash } from 'node:crypto';

export type FactKind = 'item' | 'paragraph' | 'heading';

export interface Fact {
  id: string;
  text: string;
  kind: FactKind;
  /** 1-based line of the fact's first line. */
  line: number;
  /** 1-based last line of the fact itself (for an item, before its nested items). */
  endLine: number;
  /** Nesting depth of a list item (0 for top-level items, paragraphs and headings). */
  depth: number;
  /** The id of the enclosing list item, for nested items. */
  parentId?: string;
  /** Heading level 1-6 (headings only). */
  level?: number;
}

export class FactError extends Error {
  constructor(
    readonly code: 'not_found' | 'not_removable',
    message: string,
  ) {
    super(message);
    this.name = 'FactError';
  }
}

interface Block {
  kind: FactKind;
  start: number; // 0-based line index, inclusive
  end: number; // inclusive: the fact's own lines
  subtreeEnd: number; // inclusive: with nested items (items), else === end
  text: string;
  depth: number;
  parent: Block | undefined;
  level?: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const THEMATIC = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+(.*))?$/;
const BLOCKQUOTE = /^ {0,3}>/;

/** Lines with their original line endings, so joining them gives back the exact bytes. */
function splitLines(content: string): string[] {
  const lines: string[] = [];
  let from = 0;
  while (from < content.length) {
    const nl = content.indexOf('\n', from);
    const to = nl === -1 ? content.length : nl + 1;
    lines.push(content.slice(from, to));
    from = to;
  }
  return lines;
}

const bare = (line: string): string => line.replace(/\r?\n$/, '');
const isBlank = (line: string): boolean => bare(line).trim() === '';

function indentWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += ch === '\t' ? 4 - (w % 4) : 1;
  return w;
}

interface ListMatch {
  indent: number;
  contentCol: number;
  text: string;
  ordered: boolean;
  startsAtOne: boolean;
}

function matchListItem(line: string): ListMatch | undefined {
  const b = bare(line);
  if (THEMATIC.test(b)) return undefined;
  const m = LIST_ITEM.exec(b);
  if (!m) return undefined;
  const indent = indentWidth(m[1] ?? '');
  const marker = m[2] ?? '';
  const gap = m[3] ? indentWidth(m[3].slice(0, m[3].length - (m[4] ?? '').length)) : 1;
  const ordered = /\d/.test(marker);
  return {
    indent,
    // More than four spaces after the marker means indented code inside the item: content starts at +1.
    contentCol: indent + marker.length + (gap > 4 ? 1 : gap),
    text: (m[4] ?? '').trim(),
    ordered,
    startsAtOne: !ordered || Number.parseInt(marker, 10) === 1,
  };
}

/** Does this line start a block that interrupts a paragraph (or ends an item's lazy continuation)? */
function interrupts(line: string): boolean {
  const b = bare(line);
  if (FENCE.test(b) || ATX.test(b) || THEMATIC.test(b) || BLOCKQUOTE.test(b)) return true;
  const item = matchListItem(line);
  return item !== undefined && item.text !== '' && item.startsAtOne;
}

function headingText(line: string): { level: number; text: string } | undefined {
  const m = ATX.exec(bare(line));
  if (!m) return undefined;
  return { level: (m[1] ?? '#').length, text: (m[2] ?? '').trim() };
}

function skipFrontMatter(lines: string[]): number {
  if (lines.length === 0 || bare(lines[0] ?? '').trim() !== '---') return 0;
  for (let i = 1; i < lines.length; i++) {
    const b = bare(lines[i] ?? '').trim();
    if (b === '---' || b === '...') return i + 1;
  }
  return 0;
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  const open: { block: Block; contentCol: number }[] = []; // list items still accepting lines
  let i = skipFrontMatter(lines);

  const closeItemsBelow = (col: number): void => {
    while (open.length > 0 && (open[open.length - 1]?.contentCol ?? 0) > col) open.pop();
  };

  while (i < lines.length) {
    const line = lines[i] ?? '';
    const b = bare(line);
    if (isBlank(line)) {
      // Blank lines stay inside the open items only if a line indented to their content follows. The whole
      // run of blank lines is decided at once (one line at a time rescanned the run: quadratic).
      let next = i + 1;
      while (next < lines.length && isBlank(lines[next] ?? '')) next++;
      const nextIndent = next < lines.length ? indentWidth(/^[ \t]*/.exec(lines[next] ?? '')?.[0] ?? '') : -1;
      closeItemsBelow(nextIndent < 0 ? -1 : nextIndent);
      i = next;
      continue;
    }
    const indent = indentWidth(/^[ \t]*/.exec(b)?.[0] ?? '');
    const item = matchListItem(line);

    // Inside an open item: a deeper line is a continuation, unless it is a nested item.
    const top = open[open.length - 1];
    if (top && indent >= top.contentCol && !(item && item.indent >= top.contentCol)) {
      i = continueItem(lines, i, open);
      continue;
    }
    if (item) {
      closeItemsBelow(item.indent);
      const parentEntry = open[open.length - 1];
      const block: Block = {
        kind: 'item',
        start: i,
        end: i,
        subtreeEnd: i,
        text: item.text,
        depth: open.length,
        parent: parentEntry?.block,
      };
      blocks.push(block);
      for (let p = block.parent; p; p = p.parent) p.subtreeEnd = Math.max(p.subtreeEnd, i);
      open.push({ block, contentCol: item.contentCol });
      i++;
      // Lazy continuation: unindented text right after the item's line belongs to it.
      while (i < lines.length && !isBlank(lines[i] ?? '') && !interrupts(lines[i] ?? '')) {
        const li = lines[i] ?? '';
        if (matchListItem(li)) break;
        const liIndent = indentWidth(/^[ \t]*/.exec(li)?.[0] ?? '');
        if (liIndent >= item.contentCol) break; // handled as a regular continuation next round
        extendItem(block, i, bare(li).trim());
        i++;
      }
      continue;
    }
    // Not inside an item any more (a non-indented, non-item line after a list).
    open.length = 0;

    const fence = FENCE.exec(b);
    if (fence) {
      const marker = fence[1] ?? '```';
      let j = i + 1;
      const body: string[] = [];
      while (j < lines.length) {
        const lj = bare(lines[j] ?? '');
        const close = FENCE.exec(lj);
        if (close && (close[1] ?? '')[0] === marker[0] && (close[1] ?? '').length >= marker.length) {
          if (lj.trim().replace(/[`~]/g, '') === '') break;
        }
        body.push(lj);
        j++;
      }
      const end = Math.min(j, lines.length - 1);
      blocks.push(leaf('paragraph', i, end, body.join('\n').trim() || b.trim()));
      i = end + 1;
      continue;
    }
    const heading = headingText(line);
    if (heading) {
      blocks.push({ ...leaf('heading', i, i, heading.text), level: heading.level });
      i++;
      continue;
    }
    if (THEMATIC.test(b)) {
      i++;
      continue;
    }
    // A paragraph (or block quote, table, HTML): lines up to a blank line or an interrupting block.
    const quote = BLOCKQUOTE.test(b);
    let j = i;
    const texts: string[] = [];
    while (j < lines.length && !isBlank(lines[j] ?? '')) {
      const lj = lines[j] ?? '';
      if (j > i) {
        if (!quote && SETEXT.test(bare(lj))) {
          // Text underlined with === or --- is a heading.
          const level = bare(lj).trim().startsWith('=') ? 1 : 2;
          blocks.push({ ...leaf('heading', i, j, texts.join(' ')), level });
          texts.length = 0;
          j++;
          break;
        }
        if (quote ? !BLOCKQUOTE.test(bare(lj)) && interrupts(lj) : interrupts(lj)) break;
      }
      texts.push(
        quote
          ? bare(lj)
              .replace(/^ {0,3}>\s?/, '')
              .trim()
          : bare(lj).trim(),
      );
      j++;
    }
    if (texts.length > 0) blocks.push(leaf('paragraph', i, j - 1, texts.join(' ')));
    i = j;
  }
  return blocks;
}

function leaf(kind: FactKind, start: number, end: number, text: string): Block {
  return { kind, start, end, subtreeEnd: end, text, depth: 0, parent: undefined };
}

function extendItem(block: Block, line: number, text: string): void {
  block.end = line;
  if (text !== '') block.text = block.text === '' ? text : `${block.text} ${text}`;
  for (let b: Block | undefined = block; b; b = b.parent) b.subtreeEnd = Math.max(b.subtreeEnd, line);
}

/** A line indented into the innermost open item: text, or a fenced block, continues that item. */
function continueItem(lines: string[], i: number, open: { block: Block; contentCol: number }[]): number {
  const entry = open[open.length - 1];
  if (!entry) return i + 1;
  const line = bare(lines[i] ?? '');
  const fence = FENCE.exec(line.trimStart());
  if (fence) {
    const marker = fence[1] ?? '```';
    let j = i + 1;
    while (j < lines.length) {
      const close = FENCE.exec(bare(lines[j] ?? '').trimStart());
      if (close && (close[1] ?? '')[0] === marker[0] && (close[1] ?? '').length >= marker.length) break;
      j++;
    }
    const end = Math.min(j, lines.length - 1);
    for (let k = i; k <= end; k++) extendItem(entry.block, k, bare(lines[k] ?? '').trim());
    return end + 1;
  }
  // Blank lines skipped inside a loose item are part of it too.
  extendItem(entry.block, i, line.trim());
  return i + 1;
}

function hashText(kind: FactKind, text: string): string {
  // One-shot hash: a file at the cap can hold ~35,000 facts, and a Hash object per fact cost ~3x as much.
  return hash('sha256', `${kind}\0${text}`, 'hex').slice(0, 12);
}

interface Parsed {
  lines: string[];
  blocks: Block[];
  facts: Fact[];
}

function parse(content: string): Parsed {
  const lines = splitLines(content);
  const blocks = parseBlocks(lines);
  const seen = new Map<string, number>();
  const ids = new Map<Block, string>();
  const facts = blocks.map((block): Fact => {
    const hash = hashText(block.kind, block.text);
    const n = seen.get(hash) ?? 0;
    seen.set(hash, n + 1);
    const id = `${hash}-${n}`;
    ids.set(block, id);
    const fact: Fact = {
      id,
      text: block.text,
      kind: block.kind,
      line: block.start + 1,
      endLine: block.end + 1,
      depth: block.depth,
    };
    const parentId = block.parent ? ids.get(block.parent) : undefined;
    if (parentId) fact.parentId = parentId;
    if (block.level !== undefined) fact.level = block.level;
    return fact;
  });
  return { lines, blocks, facts };
}

/** The facts of a Markdown file, in document order. */
export function splitFacts(content: string): Fact[] {
  return parse(content).facts;
}

/**
 * The content without one fact (and, for a list item, its nested items). Every other fact keeps its exact
 * bytes. Throws FactError('not_found') for an unknown id, ('not_removable') for a heading with facts under it.
 */
export function removeFact(content: string, factId: string): string {
  const { lines, blocks, facts } = parse(content);
  const index = facts.findIndex((f) => f.id === factId);
  const block = blocks[index];
  if (index < 0 || !block) {
    throw new FactError('not_found', 'That fact is no longer in the file. Reload it and try again.');
  }
  if (block.kind === 'heading') {
    const level = block.level ?? 1;
    const inside = blocks.slice(index + 1);
    const next = inside.findIndex((b) => b.kind === 'heading' && (b.level ?? 1) <= level);
    const under = next < 0 ? inside.length : next;
    if (under > 0) {
      throw new FactError(
        'not_removable',
        `The heading "${block.text}" still has ${under} ${under === 1 ? 'fact' : 'facts'} under it. ` +
          'Forget those first, or edit the file.',
      );
    }
  }
  const start = block.start;
  let end = block.subtreeEnd;
  // Keep one blank line between the neighbours, not two.
  const blankBefore = start === 0 || isBlank(lines[start - 1] ?? '');
  if (blankBefore && end + 1 < lines.length && isBlank(lines[end + 1] ?? '')) end++;
  return lines.slice(0, start).join('') + lines.slice(end + 1).join('');
}

// Formatting of `view` results, in the reference handler's shape, with the output cap and paging note.
import { MemoryError } from './errors.js';
import { humanSize, sumBytes, type DirNode } from './tree.js';

export const LINE_NUMBER_WIDTH = 6;
const byName = ([a]: [string, unknown], [b]: [string, unknown]): number => (a < b ? -1 : a > b ? 1 : 0);

/** Two levels below `dir`, folders with a trailing "/", sizes like du -h (a folder's size is its content). */
export function formatFolder(modelPath: string, dir: DirNode, capChars: number): string {
  const header = `Here're the files and directories up to 2 levels deep in ${modelPath}, excluding hidden items and node_modules:`;
  const lines: string[] = [`${humanSize(sumBytes(dir))}\t${modelPath}`];
  let hiddenLinks = 0;
  const walk = (node: DirNode, prefix: string, depth: number): void => {
    for (const [name, child] of [...node.children].sort(byName)) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      if (child.kind === 'other') {
        hiddenLinks++;
        continue;
      }
      if (child.kind === 'dir') {
        lines.push(`${humanSize(sumBytes(child))}\t${prefix}/${name}/`);
        if (depth < 2) walk(child, `${prefix}/${name}`, depth + 1);
      } else lines.push(`${humanSize(child.size)}\t${prefix}/${name}`);
    }
  };
  walk(dir, modelPath, 1);
  let out = header;
  let shown = 0;
  for (const line of lines) {
    if (out.length + 1 + line.length > capChars) break;
    out += '\n' + line;
    shown++;
  }
  if (shown < lines.length)
    out +=
      `\n[Listing cut at ${capChars} characters: ${shown} of ${lines.length} entries shown. ` +
      'View a subfolder to see the rest.]';
  if (hiddenLinks > 0)
    out += `\n[${hiddenLinks} link${hiddenLinks === 1 ? '' : 's'} not shown: links are never followed; they can only be deleted.]`;
  return out;
}

/** Numbered lines (width 6 + tab), optionally a [start, end] range (end -1 = to the end), capped. */
export function formatFile(
  modelPath: string,
  content: string,
  range: readonly [number, number] | undefined,
  capChars: number,
): string {
  const lines = content.split('\n');
  const n = lines.length;
  let start = 1;
  let end = n;
  if (range) {
    const [s, e] = range;
    if (s < 1 || s > n)
      throw new MemoryError(
        'invalid_input',
        `Invalid \`view_range\`: start ${s} is outside the file's lines [1, ${n}].`,
      );
    if (e !== -1 && (e < s || e > n))
      throw new MemoryError(
        'invalid_input',
        `Invalid \`view_range\`: end ${e} must be -1 or between start ${s} and the number of lines, ${n}.`,
      );
    start = s;
    end = e === -1 ? n : e;
  }
  let out = `Here's the content of ${modelPath} with line numbers:`;
  for (let i = start; i <= end; i++) {
    const line = `${String(i).padStart(LINE_NUMBER_WIDTH, ' ')}\t${lines[i - 1]}`;
    if (out.length + 1 + line.length > capChars) {
      if (i === start) {
        // One line longer than the cap: show its beginning so the model sees something.
        out += '\n' + line.slice(0, Math.max(0, capChars - out.length - 1));
        out += `\n[Line ${i} is longer than the ${capChars}-character view limit and was cut. Edit it with str_replace using text you can see.]`;
        if (i < end)
          out += `\n[Use view_range [${i + 1}, ${end === n ? -1 : end}] to see the following lines.]`;
        return out;
      }
      out += `\n[Output cut at ${capChars} characters: showing lines ${start}-${i - 1} of ${n}. Use view_range [${i}, ${end === n ? -1 : end}] to see the rest.]`;
      return out;
    }
    out += '\n' + line;
  }
  return out;
}

/** Lines `around` (1-based) ± 2 of `content`, numbered, for the str_replace/insert confirmation. */
export function snippet(content: string, fromLine: number, toLine: number): string {
  const lines = content.split('\n');
  const a = Math.max(1, fromLine - 2);
  const b = Math.min(lines.length, toLine + 2);
  const out: string[] = [];
  for (let i = a; i <= b; i++) out.push(`${String(i).padStart(LINE_NUMBER_WIDTH, ' ')}\t${lines[i - 1]}`);
  return out.join('\n');
}

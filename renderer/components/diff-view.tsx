// A line diff between two versions of a memory file (null: the file did not exist / was deleted).
// Unchanged runs longer than a few lines are folded to keep cards short.
import { diffLines } from 'diff';
import { useMemo, type ReactElement } from 'react';
import './components.css';

interface Line {
  type: 'add' | 'del' | 'same' | 'fold';
  text: string;
}

const CONTEXT = 2;

export function computeDiffLines(before: string | null, after: string | null): Line[] {
  const parts = diffLines(before ?? '', after ?? '');
  const out: Line[] = [];
  for (const part of parts) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    const type = part.added ? 'add' : part.removed ? 'del' : 'same';
    if (type === 'same' && lines.length > CONTEXT * 2 + 1) {
      const isFirst = out.length === 0;
      const head = isFirst ? [] : lines.slice(0, CONTEXT);
      const tail = lines.slice(-CONTEXT);
      for (const text of head) out.push({ type, text });
      out.push({ type: 'fold', text: `${lines.length - head.length - tail.length} unchanged lines` });
      for (const text of tail) out.push({ type, text });
    } else {
      for (const text of lines) out.push({ type, text });
    }
  }
  return out;
}

export function DiffView({
  before,
  after,
  label,
}: {
  before: string | null;
  after: string | null;
  /** Accessible name, e.g. "Changes to /memories/preferences.md". */
  label: string;
}): ReactElement {
  const lines = useMemo(() => computeDiffLines(before, after), [before, after]);
  const added = lines.filter((l) => l.type === 'add').length;
  const removed = lines.filter((l) => l.type === 'del').length;
  return (
    <figure className="diff" aria-label={label}>
      <figcaption className="diff-stats">
        <span className="diff-stat-add">+{added}</span> <span className="diff-stat-del">−{removed}</span>
        {before === null && <span className="diff-note"> · new file</span>}
        {after === null && <span className="diff-note"> · deleted</span>}
      </figcaption>
      <pre className="diff-body" tabIndex={0}>
        {lines.map((l, i) => (
          <span key={i} className={`diff-line diff-${l.type}`}>
            <span className="diff-sign" aria-hidden="true">
              {l.type === 'add' ? '+' : l.type === 'del' ? '−' : l.type === 'fold' ? '⋯' : ' '}
            </span>
            {l.type === 'add' && <span className="visually-hidden">added: </span>}
            {l.type === 'del' && <span className="visually-hidden">removed: </span>}
            {l.text || ' '}
            {'\n'}
          </span>
        ))}
      </pre>
    </figure>
  );
}

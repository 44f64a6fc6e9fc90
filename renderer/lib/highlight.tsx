// Text with the [start, end) ranges of a search match marked (<mark>): as React nodes, never as HTML.
import { Fragment, type ReactNode } from 'react';

export function highlight(text: string, ranges: readonly (readonly [number, number])[] = []): ReactNode {
  const sorted = ranges
    .filter(([s, e]) => s >= 0 && e <= text.length && s < e)
    .slice()
    .sort((a, b) => a[0] - b[0]);
  const out: ReactNode[] = [];
  let at = 0;
  for (const [s, e] of sorted) {
    if (s < at) continue;
    if (s > at) out.push(<Fragment key={`t${at}`}>{text.slice(at, s)}</Fragment>);
    out.push(<mark key={`m${s}`}>{text.slice(s, e)}</mark>);
    at = e;
  }
  if (at < text.length) out.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return out;
}

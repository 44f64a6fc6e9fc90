// Splits a search snippet into plain and highlighted parts from memory.search's [start, end) ranges.
// Ranges may arrive unsorted, overlapping or out of bounds (they come over the wire); they are clamped
// and merged so every character appears exactly once.

export interface Segment {
  text: string;
  hit: boolean;
}

export function highlightSegments(
  snippet: string,
  ranges: readonly (readonly [number, number])[],
): Segment[] {
  const clean = ranges
    .map(([start, end]) => [
      Math.max(0, Math.min(start, snippet.length)),
      Math.max(0, Math.min(end, snippet.length)),
    ])
    .filter(([start, end]) => end! > start!)
    .sort((a, b) => a[0]! - b[0]!) as [number, number][];
  const merged: [number, number][] = [];
  for (const range of clean) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  const segments: Segment[] = [];
  let at = 0;
  for (const [start, end] of merged) {
    if (start > at) segments.push({ text: snippet.slice(at, start), hit: false });
    segments.push({ text: snippet.slice(start, end), hit: true });
    at = end;
  }
  if (at < snippet.length || segments.length === 0) segments.push({ text: snippet.slice(at), hit: false });
  return segments;
}

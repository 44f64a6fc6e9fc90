// The colours offered for a space, with the words people call them by (the backend accepts any #rrggbb;
// these are the ones the window offers, in the order new spaces take them).
export const SPACE_COLOURS = [
  { hex: '#6b7280', name: 'Grey' },
  { hex: '#2563eb', name: 'Blue' },
  { hex: '#16a34a', name: 'Green' },
  { hex: '#d97706', name: 'Amber' },
  { hex: '#dc2626', name: 'Red' },
  { hex: '#7c3aed', name: 'Violet' },
  { hex: '#0891b2', name: 'Teal' },
  { hex: '#db2777', name: 'Pink' },
] as const;

/** The colour a new space is offered: the first one no space has yet (then round again). */
export function nextColour(used: readonly string[]): string {
  const taken = new Set(used.map((c) => c.toLowerCase()));
  const free = SPACE_COLOURS.find((c) => !taken.has(c.hex));
  return (free ?? SPACE_COLOURS[used.length % SPACE_COLOURS.length]!).hex;
}

// A page of a conversation put into a window that holds a run of its pages (issue 14, item 5). Pages
// are whole turns (electron/core/conversations/page-index.ts), so a page normally ends where the window
// begins (older) or starts where it ends (newer). A record stored since the window loaded can join turns
// it holds to later ones (a call's result stored after the next question, recover.ts; a review's outcome):
// the backend then answers with the joined turn whole and up to date, and it replaces the window's items
// it covers, up to the turn after the page (older) or from the page's first item (newer). A joined turn
// that reaches past the window's other end replaces all of it and brings that end's cursor.

/** What a window holds: items in order and the cursors either side (null at an end). */
export interface Paged<I extends { id: string }> {
  items: readonly I[];
  older: string | null;
  newer: string | null;
}

/** The window after `page`, asked for with `cursor` (the window's `older` or `newer`). */
export function mergePage<I extends { id: string }>(
  now: Paged<I>,
  direction: 'older' | 'newer',
  cursor: string,
  page: Paged<I>,
): { items: I[]; older: string | null; newer: string | null } {
  if (direction === 'older') {
    if (page.newer === cursor)
      return { items: [...page.items, ...now.items], older: page.older, newer: now.newer };
    // The page's `newer` starts the turn after it: a user message, an item of the window if it has it.
    const next = page.newer === null ? -1 : now.items.findIndex((i) => i.id === page.newer);
    if (next >= 0)
      return { items: [...page.items, ...now.items.slice(next)], older: page.older, newer: now.newer };
    return { items: [...page.items], older: page.older, newer: page.newer };
  }
  const first = page.items.length > 0 ? now.items.findIndex((i) => i.id === page.items[0]!.id) : -1;
  if (first >= 0)
    return { items: [...now.items.slice(0, first), ...page.items], older: now.older, newer: page.newer };
  if (page.older === cursor || page.items.length === 0)
    return { items: [...now.items, ...page.items], older: now.older, newer: page.newer };
  return { items: [...page.items], older: page.older, newer: page.newer };
}

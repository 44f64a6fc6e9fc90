// The Activity tab's end of the list, which loads earlier pages by itself: when it comes into view (the
// reader scrolled to the oldest call shown, or the calls loaded do not fill the tab), and again after each
// page while it stays in view, up to AUTO_PAGES pages, so a long chat without tool calls is not fetched
// whole for an empty list.
//
// Whether the end is still in view after a page is the observer's answer about the layout with that page
// in it: the end is observed afresh once the page is drawn. Until that answer the list is busy (a page may
// follow), so a reader, or a test, can tell a list that is filling itself from one that is done.
import { type RefObject, useEffect, useRef, useState } from 'react';
import { loadEarlierActivity } from '../../store/activity';

/** How many pages in a row the list loads by itself while its end stays in view. */
const AUTO_PAGES = 5;

export interface EarlierPages {
  /** For the element at the end of the list (rendered only while there are earlier pages to load). */
  end: RefObject<HTMLDivElement | null>;
  /** A page is on its way, or may be: the observer has not yet said where the end is after the last one. */
  busy: boolean;
}

/**
 * `shown` changes identity with every page that comes in (the calls published from it); `endShown` says
 * whether the end element is rendered; `paging` whether a page is on its way.
 */
export function useEarlierPages(
  conversationId: string,
  shown: unknown,
  endShown: boolean,
  paging: boolean,
): EarlierPages {
  const end = useRef<HTMLDivElement>(null);
  const observer = useRef<IntersectionObserver | null>(null);
  const inView = useRef(false);
  const budget = useRef(AUTO_PAGES);
  /** What the next answer of the observer is about: these calls, and whether a page just came in. */
  const asked = useRef<{ shown: unknown; afterPage: boolean }>({ shown: null, afterPage: false });
  const pagingNow = useRef(paging);
  /** A page came in since the end was last observed afresh. */
  const pageCame = useRef(false);
  /** The calls the observer last answered for. */
  const [answered, setAnswered] = useState<unknown>(null);

  useEffect(() => {
    pagingNow.current = paging;
  }, [paging]);

  useEffect(() => {
    const el = end.current;
    if (!el || typeof IntersectionObserver !== 'function') return;
    const io = new IntersectionObserver((entries) => {
      // Observed afresh, the end may have an answer still queued from before: the last one is now.
      const entry = entries[entries.length - 1];
      const entered = !inView.current && entry!.isIntersecting;
      inView.current = entry!.isIntersecting;
      const { shown: about, afterPage } = asked.current;
      asked.current = { shown: about, afterPage: false };
      if (entered) budget.current = AUTO_PAGES;
      // Entered, or still in view with the page just drawn: the next one, while the budget lasts.
      if ((entered || (afterPage && inView.current)) && budget.current > 0 && !pagingNow.current) {
        budget.current--;
        void loadEarlierActivity(conversationId);
      }
      setAnswered(about);
    });
    observer.current = io;
    io.observe(el);
    return () => {
      io.disconnect();
      observer.current = null;
      inView.current = false;
    };
  }, [conversationId, endShown]);

  useEffect(() => {
    const el = end.current;
    const io = observer.current;
    if (paging) pageCame.current = true;
    if (paging || !el || !io) return;
    // Observed afresh: its first answer is about the layout as drawn now, with these calls in it.
    asked.current = { shown, afterPage: pageCame.current };
    pageCame.current = false;
    io.unobserve(el);
    io.observe(el);
  }, [shown, paging, endShown]);

  const observable = typeof IntersectionObserver === 'function';
  return { end, busy: paging || (observable && endShown && answered !== shown) };
}

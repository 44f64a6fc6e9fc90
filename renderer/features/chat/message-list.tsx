// The transcript, virtualized: only the items near the viewport are in the DOM, each measured after it
// renders. While the view is at the bottom it follows the stream; scrolling up stops following, and a
// "Jump to latest" button brings it back. The items are a window on the conversation (store/chat.ts):
// nearing the top loads the page before them, kept in place (the virtualizer anchors the item in view
// when items are added above it); opened at a message, nearing the bottom loads the page after them.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactElement } from 'react';
import { Button, Spinner } from '../../components';
import { selectRunning, useChat, type ChatItem } from '../../store/chat';
import { whenIdle } from '../../lib/idle';
import { ChatItemView } from './chat-item-view';

const FOLLOW_THRESHOLD = 48;
/** Load the next page while this much is still to scroll (in screens), so it is there before it is seen. */
const PAGE_AHEAD = 1;
const HIGHLIGHT_MS = 2400;

function estimate(item: ChatItem | undefined): number {
  switch (item?.kind) {
    case 'user':
      return 72;
    case 'assistant':
      return 140;
    case 'tool':
    case 'event':
      return 44;
    default:
      return 120;
  }
}

export function MessageList(): ReactElement {
  const items = useChat((s) => s.items);
  const running = useChat(selectRunning);
  const older = useChat((s) => s.older);
  const newer = useChat((s) => s.newer);
  const paging = useChat((s) => s.paging);
  const loadMore = useChat((s) => s.loadMore);
  const showLatest = useChat((s) => s.showLatest);
  // Short of the end, the last item is not the latest: nothing to follow.
  const atEnd = newer === null;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  const followingRef = useRef(true);

  // The app does not use the React Compiler, so its warning that it would skip memoizing this component
  // does not apply; TanStack Virtual re-renders the list itself when rows are measured.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => estimate(items[i]),
    getItemKey: (i) => items[i]?.id ?? i,
    // Few rows beyond the viewport: each one is a Markdown render on the way in.
    overscan: 3,
    paddingStart: 24,
    // Room for the "thinking" pill under the last message.
    paddingEnd: 48,
    initialRect: { width: 800, height: 800 },
    // Open at the end (where the reader is going) so the first rows rendered and measured are the last
    // ones, rather than rendering the top of the transcript first and then jumping down.
    initialOffset: () => items.reduce((sum, item) => sum + estimate(item), 24 + 48),
    // Measurements settle in the normal React batch instead of one synchronous re-render per row.
    useFlushSync: false,
    // A page loaded above keeps the item in view where it was (no jump), and rows measured above the
    // viewport shift it by what they grew, not the reader.
    anchorTo: 'end',
  });

  const totalSize = virtualizer.getTotalSize();
  const scrollToEnd = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // Follow the stream: after every change in content or measured size, stay pinned to the bottom.
  useLayoutEffect(() => {
    if (followingRef.current && atEnd) scrollToEnd();
  }, [totalSize, items, scrollToEnd, atEnd]);

  // Near an edge with more beyond it: fetch the next page (also when the items do not fill the window).
  const pageIfNear = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const ahead = el.clientHeight * PAGE_AHEAD;
    if (older !== null && el.scrollTop < ahead) void loadMore('older');
    else if (newer !== null && el.scrollHeight - el.scrollTop - el.clientHeight < ahead)
      void loadMore('newer');
  }, [older, newer, loadMore]);
  // Once the window is idle (a scroll, or the items changing, asks again; the last one counts): an open's
  // first screen is painted before the screen above it is fetched, even with the scroll event its own
  // scroll to the end fires. Fetched within the frames after it, that page cost a first open after a
  // restart a fifth more.
  const latest = useRef(pageIfNear);
  latest.current = pageIfNear;
  const pending = useRef<(() => void) | null>(null);
  const pageSoon = useCallback(() => {
    pending.current?.();
    pending.current = whenIdle(() => {
      pending.current = null;
      latest.current();
    }, 200);
  }, []);
  useEffect(() => () => pending.current?.(), []);
  useEffect(() => {
    if (paging === null) pageSoon();
  }, [paging, totalSize, pageSoon]);

  // Sending (a new user item at the end) always brings the view back down.
  const lastItem = items[items.length - 1];
  const lastUserId = lastItem?.kind === 'user' ? lastItem.id : null;
  useLayoutEffect(() => {
    if (lastUserId === null) return;
    followingRef.current = true;
    setFollowing(true);
    scrollToEnd();
  }, [lastUserId, scrollToEnd]);

  // A provenance link ("written in ‘Dinner plans’ at 14:02"): scroll to that message, stop following the
  // stream, and highlight it for a moment.
  const focusId = useChat((s) => s.focusMessageId);
  const focusMessage = useChat((s) => s.focusMessage);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  useLayoutEffect(() => {
    if (focusId === null) return;
    // A journal entry names the tool call that wrote (and, when known, the message); either will do.
    const index = items.findIndex((i) => i.id === focusId || (i.kind === 'tool' && i.toolUseId === focusId));
    focusMessage(null);
    if (index < 0) return;
    followingRef.current = false;
    setFollowing(false);
    virtualizer.scrollToIndex(index, { align: 'center' });
    setHighlighted(items[index]?.id ?? null);
  }, [focusId, items, focusMessage, virtualizer]);
  useEffect(() => {
    if (highlighted === null) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  // Between sending and the first token (or while a tool runs) say that something is happening.
  const waiting = running && !(lastItem?.kind === 'assistant' && lastItem.streaming);
  const lastAssistant = findLast(items, (i) => i.kind === 'assistant');
  const lastUserIndex = findLastIndex(items, (i) => i.kind === 'user');
  // Under "ask me" the run waits for the user, not for the model: say so.
  const reviewing =
    waiting && items.slice(lastUserIndex + 1).some((i) => i.kind === 'review' && i.outcome === null);

  return (
    <div className="message-list-wrap">
      <div
        ref={scrollRef}
        className="message-list"
        role="log"
        aria-label="Conversation"
        aria-live="off"
        tabIndex={0}
        aria-busy={paging !== null}
        onScroll={(e) => {
          const el = e.currentTarget;
          pageSoon();
          const atBottom = atEnd && el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_THRESHOLD;
          if (atBottom !== followingRef.current) {
            followingRef.current = atBottom;
            setFollowing(atBottom);
          }
        }}
      >
        <div className="message-list-inner" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = items[v.index];
            if (!item) return null;
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={virtualizer.measureElement}
                className={item.id === highlighted ? 'message-row message-row-focus' : 'message-row'}
                data-message-id={item.id}
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <ChatItemView item={item} isLastAnswer={item === lastAssistant && v.index > lastUserIndex} />
              </div>
            );
          })}
        </div>
      </div>
      {waiting && (
        <p className="message-waiting" role="status">
          {reviewing ? (
            'Waiting for your review of the memory change'
          ) : (
            <>
              <Spinner size={12} /> Mnemo is thinking…
            </>
          )}
        </p>
      )}
      {(!following || !atEnd) && items.length > 0 && (
        <Button
          size="sm"
          icon="chevronDown"
          className="jump-latest"
          onClick={() => {
            followingRef.current = true;
            setFollowing(true);
            if (atEnd) scrollToEnd();
            else void showLatest();
          }}
        >
          Jump to latest
        </Button>
      )}
    </div>
  );
}

function findLast<T>(list: readonly T[], pred: (t: T) => boolean): T | undefined {
  const i = findLastIndex(list, pred);
  return i < 0 ? undefined : list[i];
}
function findLastIndex<T>(list: readonly T[], pred: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (pred(list[i] as T)) return i;
  return -1;
}

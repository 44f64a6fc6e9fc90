// The Activity tab: every tool call of the open conversation with its time, duration, input, result and
// errors, filterable by tool. Live calls appear as they start and complete when their result arrives.
// Newest first, a page of the conversation at a time: earlier calls load as the reader reaches the end
// of the list (or presses "Show earlier calls").
import { type RefObject, useEffect, useId, useState, type ReactElement } from 'react';
import { EmptyState } from '../../components/empty-state';
import { Spinner } from '../../components/spinner';
import { formatDuration } from '../../lib/format';
import { whenIdle } from '../../lib/idle';
import {
  ensureActivity,
  loadEarlierActivity,
  setActivityFilter,
  useActivityStore,
  type ToolCall,
} from '../../store/activity';
import { Button } from '../../components/button';
import { useChat } from '../../store/chat';
import { useSpaces } from '../../store/spaces';
import { useUi } from '../../store/ui';
import { filterCalls, formatInput, summarizeCall, toolCounts } from './summary';
import { SpaceLabel } from '../spaces';
import { useEarlierPages } from './use-earlier-pages';
import './tool-log.css';

const timeFormat = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

function formatClock(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : timeFormat.format(at);
}

export function ActivityPanel(): ReactElement {
  const conversationId = useChat((s) => s.conversationId);
  return (
    <section className="tl-panel" aria-label="Activity">
      <div className="sp-view-head">
        <SpaceLabel prefix="Tool calls in" />
      </div>
      {conversationId ? (
        <ConversationActivity conversationId={conversationId} />
      ) : (
        <EmptyState icon="tool" title="No tool calls yet">
          Tool calls of the open conversation are listed here: what Claude read and wrote, how long it took,
          and what came back.
        </EmptyState>
      )}
    </section>
  );
}

const EMPTY: ToolCall[] = [];

function ConversationActivity({ conversationId }: { conversationId: string }): ReactElement {
  const calls = useActivityStore((s) => s.byConversation[conversationId]?.calls ?? EMPTY);
  const status = useActivityStore((s) => s.byConversation[conversationId]?.status ?? 'idle');
  const error = useActivityStore((s) => s.byConversation[conversationId]?.error ?? null);
  const hasEarlier = useActivityStore((s) => s.byConversation[conversationId]?.hasEarlier ?? false);
  const paging = useActivityStore((s) => s.byConversation[conversationId]?.paging ?? false);
  const filter = useActivityStore((s) => s.filter);
  const selectId = useId();

  const visible = useUi((s) => s.panelOpen && s.panelTab === 'activity');
  const space = useSpaces((s) => s.current);
  useEffect(() => {
    // The tab stays mounted while hidden. Opening a conversation in the chat loads its last page, and the
    // activity slice takes the tool calls from that load (store/transcripts.ts); opened at an older
    // message, the chat's page is not the last one, so this fetches it, once the tab is shown and the app
    // is idle: never twice, never in competition with the chat's first paint, and never for a tab nobody
    // looks at.
    if (!visible) return;
    return whenIdle(() => ensureActivity(conversationId));
    // The space too: a conversation moved to another space keeps its id, and the switch emptied the store.
  }, [conversationId, visible, space]);

  const earlier = useEarlierPages(conversationId, calls, hasEarlier && visible, paging);

  const counts = toolCounts(calls);
  // A filter for a tool this conversation never used would show an empty list for no visible reason.
  const activeFilter = filter && counts.some((c) => c.name === filter) ? filter : null;
  const shown = filterCalls(calls, activeFilter).reverse();
  const errors = calls.filter((c) => c.status === 'error').length;

  if (status === 'loading' && calls.length === 0) return <Spinner label="Loading activity" />;
  return (
    <>
      <div className="tl-toolbar">
        <label htmlFor={selectId} className="tl-toolbar__label">
          Filter by tool
        </label>
        <select
          id={selectId}
          className="select tl-toolbar__select"
          value={activeFilter ?? ''}
          onChange={(e) => setActivityFilter(e.target.value || null)}
        >
          <option value="">All tools ({calls.length})</option>
          {counts.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name} ({c.count})
            </option>
          ))}
        </select>
      </div>
      <p className="tl-summary" role="status">
        {/* With earlier pages not loaded, the counts are of the latest messages only: said so. */}
        {calls.length === 0
          ? hasEarlier
            ? 'No tool calls in the latest messages.'
            : 'No tool calls in this conversation yet.'
          : `${shown.length} of ${calls.length} ${calls.length === 1 ? 'call' : 'calls'}${hasEarlier ? ' in the latest messages' : ''}${errors ? ` · ${errors} failed` : ''}`}
      </p>
      {error && (
        <p className="tl-error" role="alert">
          {error}
        </p>
      )}
      {/* Busy while it loads earlier calls by itself: the counts above may still grow. */}
      <ol className="tl-list" aria-label="Tool calls" aria-busy={earlier.busy}>
        {shown.map((call) => (
          <CallItem key={call.toolUseId} call={call} />
        ))}
      </ol>
      {hasEarlier && visible && <Earlier conversationId={conversationId} paging={paging} end={earlier.end} />}
    </>
  );
}

/** The end of the list: "Show earlier calls", pressed by itself while it is in view (use-earlier-pages.ts). */
function Earlier({
  conversationId,
  paging,
  end,
}: {
  conversationId: string;
  paging: boolean;
  end: RefObject<HTMLDivElement | null>;
}): ReactElement {
  return (
    <div ref={end} className="tl-earlier">
      <Button onClick={() => void loadEarlierActivity(conversationId)} disabled={paging}>
        {paging ? 'Loading earlier calls…' : 'Show earlier calls'}
      </Button>
    </div>
  );
}

function CallItem({ call }: { call: ToolCall }): ReactElement {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const summary = summarizeCall(call);
  const statusLabel = call.status === 'running' ? 'Running' : call.status === 'error' ? 'Error' : 'Done';
  return (
    <li className={`tl-call tl-call--${call.status}`} aria-label={summary}>
      <button
        type="button"
        className="tl-call__head"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen(!open)}
      >
        <span className="tl-call__chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span className="tl-call__summary">{summary}</span>
        <span className="tl-call__meta">
          <time dateTime={call.startedAt}>{formatClock(call.startedAt)}</time>
          {call.durationMs !== null && <span> · {formatDuration(call.durationMs)}</span>}
        </span>
        <span className={`tl-status tl-status--${call.status}`}>{statusLabel}</span>
      </button>
      {open && (
        <div id={detailsId} className="tl-call__details">
          <h4 className="tl-call__label">Input</h4>
          <pre className="tl-pre" tabIndex={0}>
            {formatInput(call.input)}
          </pre>
          <h4 className="tl-call__label">{call.isError ? 'Error' : 'Result'}</h4>
          {call.result === null ? (
            <p className="tl-muted">{call.status === 'running' ? 'Waiting for the result…' : 'No result.'}</p>
          ) : (
            <pre className={call.isError ? 'tl-pre tl-pre--error' : 'tl-pre'} tabIndex={0}>
              {call.result}
            </pre>
          )}
        </div>
      )}
    </li>
  );
}

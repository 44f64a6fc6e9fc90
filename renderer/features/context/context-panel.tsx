// The Context tab: what the next request will carry (system, memory, messages, tool results) against the
// model's window and the clearing/compaction triggers, the history of clearing and compaction, and
// "Compact now".
import { useEffect, type ReactElement } from 'react';
import type { ContextUsage } from '../../../shared/channels/context';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { Spinner } from '../../components/spinner';
import { formatTime, formatTokens } from '../../lib/format';
import { whenIdle } from '../../lib/idle';
import { useChat } from '../../store/chat';
import { compactNow, loadContext, useContextStore } from '../../store/context';
import { useSpaces } from '../../store/spaces';
import { meterModel } from './meter';
import { SpaceLabel } from '../spaces';
import './context.css';

export function ContextPanel(): ReactElement {
  const conversationId = useChat((s) => s.conversationId);
  return (
    <section className="cx-panel" aria-label="Context">
      <div className="sp-view-head">
        <SpaceLabel prefix="Memory from" />
      </div>
      {conversationId ? (
        <ConversationContext conversationId={conversationId} />
      ) : (
        <EmptyState icon="layers" title="No conversation open">
          Start or open a conversation to see how much of the model’s context it uses.
        </EmptyState>
      )}
    </section>
  );
}

function ConversationContext({ conversationId }: { conversationId: string }): ReactElement {
  const entry = useContextStore((s) => s.byConversation[conversationId]);
  const running = useContextStore((s) => s.running[conversationId] ?? false);
  const chatRunning = useChat((s) => s.activeRunId !== null);
  // A switch empties the store: measure again, also when the conversation is the same (it was moved here).
  const space = useSpaces((s) => s.current);
  // The chat's first screen is what an open waits for: the meter is asked for once that is painted and the
  // app is idle, so its request, its answer and its render never share the open's time.
  const opened = useChat((s) => !s.loading);

  useEffect(() => {
    if (!opened) return;
    return whenIdle(() => void loadContext(conversationId));
  }, [conversationId, space, opened]);

  if (!entry?.usage) {
    if (entry?.status === 'error') {
      return (
        <EmptyState
          icon="alert"
          title="The context could not be measured"
          actions={
            <Button size="sm" onClick={() => void loadContext(conversationId)}>
              Retry
            </Button>
          }
        >
          {entry.error}
        </EmptyState>
      );
    }
    return <Spinner label="Measuring the context" />;
  }
  const compacting = entry.compactRunId !== null;
  const busy = compacting || running || chatRunning;
  return (
    <div className="cx-body">
      <Meter usage={entry.usage} />
      <div className="cx-actions">
        <Button
          size="sm"
          icon="layers"
          disabled={busy || entry.usage.total === 0}
          aria-describedby="cx-compact-hint"
          onClick={() => void compactNow(conversationId)}
        >
          {compacting ? 'Compacting…' : 'Compact now'}
        </Button>
        <span id="cx-compact-hint" className="cx-muted">
          {busy && !compacting
            ? 'Available when the current answer has finished.'
            : 'Summarizes earlier messages; pinned messages are kept.'}
        </span>
      </div>
      {entry.compactError && (
        <p className="cx-error" role="alert">
          {entry.compactError}
        </p>
      )}
      <History usage={entry.usage} />
    </div>
  );
}

function Meter({ usage }: { usage: ContextUsage }): ReactElement {
  const model = meterModel(usage);
  const percent = Math.round((usage.total / model.scale) * 100);
  const valueText = `${formatTokens(usage.total)} of ${formatTokens(model.scale)} tokens (${percent}%)${usage.measured ? '' : ', estimated'}`;
  return (
    <div className="cx-meter-block">
      <div className="cx-meter-head">
        <h3 className="cx-title">Context</h3>
        <span className="cx-total">
          <strong>{formatTokens(usage.total)}</strong> / {formatTokens(model.scale)} tokens
          {!model.scaleIsWindow && ' (window unknown)'}
        </span>
      </div>
      <div
        className="cx-meter"
        role="meter"
        aria-label="Context used"
        aria-valuemin={0}
        aria-valuemax={model.scale}
        aria-valuenow={Math.min(usage.total, model.scale)}
        aria-valuetext={valueText}
      >
        {model.segments.map((s) =>
          s.percent > 0 ? (
            <span key={s.key} className={`cx-seg cx-seg--${s.key}`} style={{ width: `${s.percent}%` }} />
          ) : null,
        )}
        {model.markers.map((m) => (
          <span
            key={m.key}
            className={`cx-marker cx-marker--${m.key}`}
            style={{ left: `${m.percent}%` }}
            title={`${m.label} at ${formatTokens(m.tokens)} tokens`}
          />
        ))}
      </div>
      <ul className="cx-legend" aria-label="Context parts">
        {model.segments.map((s) => (
          <li key={s.key} className="cx-legend__item">
            <span className={`cx-swatch cx-seg--${s.key}`} aria-hidden="true" />
            <span className="cx-legend__label">{s.label}</span>
            <span className="cx-legend__value">{formatTokens(s.tokens)}</span>
          </li>
        ))}
        {model.markers.map((m) => (
          <li key={m.key} className="cx-legend__item">
            <span className={`cx-swatch cx-swatch--marker cx-marker--${m.key}`} aria-hidden="true" />
            <span className="cx-legend__label">{m.label} at</span>
            <span className="cx-legend__value">{formatTokens(m.tokens)}</span>
          </li>
        ))}
      </ul>
      <p className="cx-muted">
        {usage.model} ·{' '}
        {usage.strategy === 'off' ? 'context management off' : `${usage.strategy} context management`}
        {usage.measured ? '' : ' · estimated until the next answer'}
      </p>
      {usage.compactionPaused && (
        <p className="cx-paused" role="note" aria-label="Compaction paused">
          {usage.compactionPaused}
        </p>
      )}
    </div>
  );
}

function History({ usage }: { usage: ContextUsage }): ReactElement {
  const events = [...usage.history].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <section className="cx-history" aria-label="Clearing and compaction history">
      <h3 className="cx-title">History</h3>
      {events.length === 0 ? (
        <p className="cx-muted">Nothing has been cleared or compacted in this conversation.</p>
      ) : (
        <ol className="cx-history__list">
          {events.map((e, i) => (
            <li key={`${e.at}-${i}`} className="cx-history__item">
              <span className={`cx-kind cx-kind--${e.kind}`}>
                {e.kind === 'cleared' ? 'Cleared' : 'Compacted'}
              </span>
              <span>
                {formatTokens(e.tokensBefore)} → {formatTokens(e.tokensAfter)} tokens
              </span>
              <time className="cx-muted" dateTime={e.at}>
                {formatTime(e.at)}
              </time>
              {e.detail && <span className="cx-history__detail">{e.detail}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

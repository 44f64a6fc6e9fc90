// The labelled cards of shared/projection/cards.ts: backfill, clearing, compaction (expandable to its
// summary), a compaction that cannot help, the turn limit, a cut-off tool call, memory changed elsewhere.
import type { ReactElement } from 'react';
import { Markdown, type IconName } from '../../../components';
import type { ChatItem } from '../../../store/chat';
import { Card } from './card';

type EventItem = Extract<ChatItem, { kind: 'event' }>;

const icons: Record<string, IconName> = {
  backfill: 'memory',
  cleared: 'eraser',
  compacted: 'layers',
  compaction_stuck: 'layers',
  turn_limit: 'alert',
  interrupted: 'alert',
  memory_changed: 'memory',
  moved_space: 'memory',
  error: 'alert',
};

export function EventCard({ item }: { item: EventItem }): ReactElement {
  const tone =
    item.event === 'backfill' || item.event === 'memory_changed' || item.event === 'moved_space'
      ? 'memory'
      : item.event === 'error'
        ? 'error'
        : 'context';
  return (
    <Card icon={icons[item.event] ?? 'sparkle'} tone={tone} label={item.text} summary={item.text}>
      {item.detail &&
        (item.event === 'compacted' ? (
          <div className="card-summary-text">
            <p className="tool-detail-label">Summary the model continues from</p>
            <Markdown text={item.detail} />
          </div>
        ) : (
          <pre className="tool-pre">{item.detail}</pre>
        ))}
    </Card>
  );
}

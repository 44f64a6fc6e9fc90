// Context and memory events: backfill, clearing, compaction (expandable to its summary), turn limit.
import type { ReactElement } from 'react';
import { Markdown, type IconName } from '../../../components';
import type { ChatItem } from '../../../store/chat';
import { Card } from './card';

type EventItem = Extract<ChatItem, { kind: 'event' }>;

const icons: Record<string, IconName> = {
  backfill: 'memory',
  cleared: 'eraser',
  compacted: 'layers',
  turn_limit: 'alert',
  error: 'alert',
};

export function EventCard({ item }: { item: EventItem }): ReactElement {
  const tone = item.event === 'backfill' ? 'memory' : item.event === 'error' ? 'error' : 'context';
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

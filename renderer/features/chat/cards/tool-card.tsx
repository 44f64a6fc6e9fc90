// A tool call: collapsed to "memory · create /memories/preferences.md", expandable to input and result.
import type { ReactElement } from 'react';
import { Spinner } from '../../../components';
import { formatDuration } from '../../../lib/format';
import type { ChatItem } from '../../../store/chat';
import { memoryWriteTarget } from '../../../store/chat-items';
import { Card } from './card';
import { MemoryToolCard } from './memory-card';
import { RecallToolCard } from './recall-card';
import { recallCard } from '../../../../shared/projection/recall';

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

/** "create /memories/preferences.md", "search “dinner”" … from a tool input. */
export function describeToolInput(input: unknown): string {
  if (!input || typeof input !== 'object') return typeof input === 'string' ? input : '';
  const o = input as Record<string, unknown>;
  const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
  const command = str(o.command);
  const path = str(o.path) ?? str(o.old_path);
  const target = str(o.new_path);
  const query = str(o.query);
  const parts = [command, path, target ? `→ ${target}` : null, query ? `“${query}”` : null].filter(Boolean);
  if (parts.length) return parts.join(' ');
  const first = Object.values(o).find((v) => typeof v === 'string');
  return typeof first === 'string' ? first.slice(0, 80) : '';
}

export function ToolCard({ item }: { item: ToolItem }): ReactElement {
  const target = memoryWriteTarget(item);
  if (target && !item.isError && item.result !== null) return <MemoryToolCard item={item} target={target} />;
  const recall = recallCard(item.name, item.input, item.result, item.isError);
  if (recall) return <RecallToolCard item={item} card={recall} />;
  const detail = describeToolInput(item.input);
  const summary = `${item.name}${detail ? ` · ${detail}` : ''}`;
  const running = item.result === null;
  return (
    <Card
      icon={item.isError ? 'alert' : 'tool'}
      tone={item.isError ? 'error' : 'neutral'}
      label={`Tool call: ${summary}`}
      summary={<span className="mono-summary">{summary}</span>}
      meta={
        running ? (
          <Spinner label="Running" size={12} />
        ) : (
          <>
            {item.isError && <span className="badge badge-error">Error</span>}
            {item.durationMs !== null && <span>{formatDuration(item.durationMs)}</span>}
          </>
        )
      }
    >
      <div className="tool-detail">
        <p className="tool-detail-label">Input</p>
        <pre className="tool-pre" tabIndex={0}>
          {formatInput(item.input)}
        </pre>
        <p className="tool-detail-label">{item.isError ? 'Error' : 'Result'}</p>
        <pre className={`tool-pre${item.isError ? ' tool-pre-error' : ''}`} tabIndex={0}>
          {item.result ?? 'Running…'}
        </pre>
      </div>
    </Card>
  );
}

function formatInput(input: unknown): string {
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input, null, 2) ?? '';
  } catch {
    return String(input);
  }
}

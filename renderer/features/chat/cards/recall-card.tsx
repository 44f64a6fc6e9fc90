// A search of past conversations by the model: "Searched past conversations for ‘restaurant’ · 3 results",
// expandable to its hits, each a link that opens the conversation at that message. The label and the
// hits come from the shared projection (shared/projection/recall.ts), as in every face.
import type { ReactElement } from 'react';
import type { RecallCard as RecallFacts } from '../../../../shared/projection/recall';
import { Spinner } from '../../../components';
import { formatTime } from '../../../lib/format';
import { useChat } from '../../../store/chat';
import { useConversations } from '../../../store/conversations';
import type { ChatItem } from '../../../store/chat';
import { Card } from './card';

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

export function RecallToolCard({ item, card }: { item: ToolItem; card: RecallFacts }): ReactElement {
  const open = useChat((s) => s.open);
  // A hit's conversation deleted since the search (no longer in the space's list; a list not read whole
  // yet counts all as there): shown as deleted, not as a link that would empty the window for an error.
  const list = useConversations((s) => s.list);
  const hidden = useConversations((s) => s.hidden);
  const complete = useConversations((s) => s.complete);
  const gone = (id: string): boolean => hidden.has(id) || (complete && !list.some((c) => c.id === id));
  const running = item.result === null;
  return (
    <Card
      icon={item.isError ? 'alert' : 'search'}
      tone={item.isError ? 'error' : 'neutral'}
      label={card.label}
      summary={card.label}
      meta={running ? <Spinner label="Searching" size={12} /> : undefined}
    >
      {card.hits.length > 0 ? (
        <ul className="recall-hits" aria-label="Past conversations found">
          {card.hits.map((hit, i) => (
            <li key={`${hit.conversationId}:${hit.messageId ?? i}`}>
              {gone(hit.conversationId) ? (
                <div className="recall-hit recall-hit-gone">
                  <HitText hit={hit} deleted />
                </div>
              ) : (
                <button
                  type="button"
                  className="recall-hit"
                  onClick={() =>
                    void open(hit.conversationId, hit.messageId ? { focus: hit.messageId } : undefined)
                  }
                >
                  <HitText hit={hit} deleted={false} />
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : item.result !== null ? (
        <p className="tool-detail-label">{item.isError ? item.result : 'Nothing was found.'}</p>
      ) : undefined}
    </Card>
  );
}

function HitText({ hit, deleted }: { hit: RecallFacts['hits'][number]; deleted: boolean }): ReactElement {
  return (
    <>
      <span className="recall-hit-title">
        {hit.title || 'Untitled'}
        {deleted && <span className="recall-hit-time"> · deleted</span>}
        {hit.at && <span className="recall-hit-time"> · {formatTime(hit.at)}</span>}
        {hit.role && hit.role !== 'title' && (
          <span className="recall-hit-time"> · {hit.role === 'user' ? 'you' : 'Mnemo'}</span>
        )}
      </span>
      <span className="recall-hit-snippet">{hit.snippet}</span>
    </>
  );
}

// One transcript item: a message or one of the inline cards.
import { memo, type ReactElement } from 'react';
import type { ChatItem } from '../../store/chat';
import { ErrorCard } from './cards/error-card';
import { EventCard } from './cards/event-card';
import { ReviewCard } from './cards/review-card';
import { ToolCard } from './cards/tool-card';
import { AssistantMessage, UserMessage } from './message';

export const ChatItemView = memo(function ChatItemView({
  item,
  isLastAnswer,
}: {
  item: ChatItem;
  isLastAnswer: boolean;
}): ReactElement {
  switch (item.kind) {
    case 'user':
      return <UserMessage item={item} />;
    case 'assistant':
      return <AssistantMessage item={item} isLast={isLastAnswer} />;
    case 'tool':
      return <ToolCard item={item} />;
    case 'event':
      return <EventCard item={item} />;
    case 'review':
      return <ReviewCard item={item} />;
    case 'error':
      return <ErrorCard item={item} />;
  }
});

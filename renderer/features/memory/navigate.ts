// Links from memory provenance to the conversation that wrote a file: the chat slice opens it.
import { useChat } from '../../store/chat';

export interface OpenConversationDetail {
  conversationId: string;
  messageId?: string;
}

export function requestOpenConversation(detail: OpenConversationDetail): void {
  void useChat
    .getState()
    .open(detail.conversationId, detail.messageId ? { focus: detail.messageId } : undefined);
}

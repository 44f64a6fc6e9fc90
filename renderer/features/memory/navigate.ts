// Links from memory provenance to the conversation that wrote a file: the chat slice opens it, in its own
// space (a file copied from another space names the conversation there: following the link switches).
import { openConversationIn } from '../spaces/use-spaces';

export interface OpenConversationDetail {
  conversationId: string;
  messageId?: string;
  /** The space the conversation is in, when it is not the window's current one. */
  spaceId?: string;
}

export function requestOpenConversation(detail: OpenConversationDetail): void {
  void openConversationIn(detail.spaceId, detail.conversationId, detail.messageId);
}

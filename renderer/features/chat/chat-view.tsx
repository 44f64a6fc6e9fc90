// The middle pane: the conversation's header, the transcript (or a welcome screen) and the message box.
import type { ReactElement } from 'react';
import { EmptyState, Icon, IconButton, Spinner } from '../../components';
import { useChat } from '../../store/chat';
import { useConversations } from '../../store/conversations';
import { useUi } from '../../store/ui';
import { Composer } from './composer';
import { MessageList } from './message-list';
import './chat.css';

export function ChatView(): ReactElement {
  const conversationId = useChat((s) => s.conversationId);
  const empty = useChat((s) => s.items.length === 0);
  const loading = useChat((s) => s.loading);
  const loadError = useChat((s) => s.loadError);
  const newChatMemory = useChat((s) => s.newChatMemory);
  const temporary = useChat((s) => s.temporary !== null);
  const conversation = useConversations((s) => s.list.find((c) => c.id === conversationId));
  const exportMarkdown = useConversations((s) => s.exportMarkdown);
  const panelOpen = useUi((s) => s.panelOpen);
  const togglePanel = useUi((s) => s.togglePanel);
  const sidebarOpen = useUi((s) => s.sidebarOpen);
  const toggleSidebar = useUi((s) => s.toggleSidebar);
  // A temporary conversation is never in the list: what the window knows of it is that it is one.
  const memoryOff =
    temporary || (conversation ? !conversation.memory : conversationId === null && !newChatMemory);
  const title =
    conversation?.title || (temporary ? 'Temporary chat' : conversationId ? 'Untitled' : 'New chat');

  return (
    <main className="chat" aria-label="Chat">
      <header className="chat-header">
        {!sidebarOpen && (
          <IconButton label="Show conversations" icon="sidebar" onClick={() => toggleSidebar(true)} />
        )}
        <h1 className="chat-title" title={title}>
          {title}
        </h1>
        {memoryOff && (
          <span className="badge badge-warning" title="This conversation does not read or write memory">
            <Icon name="noMemory" size={12} /> Memory off
          </span>
        )}
        <div className="chat-header-actions">
          {conversationId && !temporary && (
            <IconButton
              label="Export as Markdown"
              icon="download"
              onClick={() => void exportMarkdown(conversationId)}
            />
          )}
          <IconButton
            label={panelOpen ? 'Hide side panel' : 'Show side panel'}
            icon="panel"
            pressed={panelOpen}
            onClick={() => togglePanel()}
          />
        </div>
      </header>
      {loading ? (
        <div className="chat-center">
          <Spinner label="Loading the conversation" size={20} />
        </div>
      ) : loadError ? (
        <div className="chat-center">
          <EmptyState icon="alert" title="This conversation could not be loaded">
            {loadError}
          </EmptyState>
        </div>
      ) : empty ? (
        <div className="chat-center">
          <Welcome memoryOff={memoryOff} />
        </div>
      ) : (
        <MessageList />
      )}
      <Composer />
    </main>
  );
}

function Welcome({ memoryOff }: { memoryOff: boolean }): ReactElement {
  return (
    <EmptyState icon={memoryOff ? 'noMemory' : 'sparkle'} title="What can I help with?">
      {memoryOff
        ? 'This is a temporary chat: Mnemo will not read or write its memory.'
        : 'Mnemo remembers what matters across conversations, in plain Markdown files you can read, edit and undo in the Memory tab.'}
    </EmptyState>
  );
}

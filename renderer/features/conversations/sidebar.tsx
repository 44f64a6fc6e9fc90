// The conversations sidebar: new chat (with or without memory), search, and the list with rename and
// delete (confirmed, then undoable from the toast).
import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { ConversationSummary } from '../../../shared/channels/conversations';
import { TABLE } from '../../../shared/confirmations.js';
import { Button, ConfirmBody, ConfirmDialog, EmptyState, Icon, IconButton, Spinner } from '../../components';
import { formatTime } from '../../lib/format';
import { highlight } from '../../lib/highlight';
import { useChat } from '../../store/chat';
import { useConversations } from '../../store/conversations';
import { useUi } from '../../store/ui';
import { MoveConversationDialog, SpaceSwitcher } from '../spaces';
import { spaceColourStyle } from '../spaces/space-label';
import { useCurrentSpace } from '../spaces/use-spaces';
import { SyncStatusLine } from '../sync';
import { ConversationRow } from './conversation-row';
import './sidebar.css';

/** Whole percent, never 100 before the build has finished. */
const percent = (p: { indexed: number; total: number }): number =>
  Math.min(99, Math.floor((p.indexed * 100) / p.total));

export function ConversationSidebar(): ReactElement {
  const list = useConversations((s) => s.list);
  const hidden = useConversations((s) => s.hidden);
  const loaded = useConversations((s) => s.loaded);
  const query = useConversations((s) => s.query);
  const results = useConversations((s) => s.results);
  const searching = useConversations((s) => s.searching);
  const search = useConversations((s) => s.search);
  const indexing = useConversations((s) => s.indexing);
  const remove = useConversations((s) => s.remove);
  const activeId = useChat((s) => s.conversationId);
  const open = useChat((s) => s.open);
  const openSettings = useUi((s) => s.openSettings);
  const toggleSidebar = useUi((s) => s.toggleSidebar);
  const requestComposerFocus = useUi((s) => s.requestComposerFocus);
  const focusSearch = useUi((s) => s.focusConversationSearch);
  const searchRef = useRef<HTMLInputElement>(null);
  const [confirming, setConfirming] = useState<ConversationSummary | null>(null);
  const ask = TABLE['conversations.delete'].dialog({ title: confirming?.title ?? '' });
  const [moving, setMoving] = useState<ConversationSummary | null>(null);
  const space = useCurrentSpace();

  useEffect(() => {
    if (focusSearch) searchRef.current?.focus();
  }, [focusSearch]);

  const visible = list.filter((c) => !hidden.has(c.id));
  const startNew = (memory: boolean): void => {
    void open(null, { memory });
    requestComposerFocus();
  };

  return (
    <nav className="sidebar" aria-label="Conversations">
      <div className="sidebar-top">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true">
            M
          </span>
          Mnemo
        </span>
        <IconButton label="Settings" icon="settings" onClick={() => openSettings(true)} />
        <IconButton label="Hide conversations" icon="sidebar" onClick={() => toggleSidebar(false)} />
      </div>
      <SpaceSwitcher />
      <SyncStatusLine />
      <div className="sidebar-new">
        <Button variant="primary" icon="plus" className="sidebar-new-btn" onClick={() => startNew(true)}>
          New chat
        </Button>
        <IconButton
          variant="secondary"
          label="New chat without memory"
          icon="noMemory"
          onClick={() => startNew(false)}
        />
      </div>
      <div className="sidebar-search">
        <Icon name="search" size={14} />
        <input
          ref={searchRef}
          type="search"
          className="sidebar-search-input"
          placeholder={`Search in ${space.name}`}
          aria-label="Search conversations"
          value={query}
          onChange={(e) => void search(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && query) {
              e.preventDefault();
              e.stopPropagation();
              void search('');
            }
          }}
        />
        {searching && <Spinner size={12} />}
      </div>
      <div className="sidebar-list">
        {/* There while a search waits, so the progress is announced as it fills in (politely). */}
        {searching && (
          <p className="sidebar-indexing" role="status" aria-live="polite">
            {indexing ? `Indexing past conversations… ${percent(indexing)}%` : ''}
          </p>
        )}
        {results !== null ? (
          // A hit in a conversation just deleted (its Undo still showing) is hidden: none left is no match.
          results.every((r) => hidden.has(r.id)) ? (
            <p className="sidebar-note">No conversation matches “{query.trim()}”.</p>
          ) : (
            <ul className="conv-list" aria-label="Search results">
              {results
                .filter((r) => !hidden.has(r.id))
                .map((r) => (
                  <li key={`${r.id}:${r.messageId ?? ''}`}>
                    <button
                      type="button"
                      className="conv-result sp-marked"
                      style={spaceColourStyle(space.colour)}
                      aria-current={r.id === activeId ? 'page' : undefined}
                      // At the message that matched: the page around it, scrolled into view.
                      onClick={() => void open(r.id, r.messageId ? { focus: r.messageId } : undefined)}
                    >
                      <span className="conv-title">{r.title || 'Untitled'}</span>
                      <span className="conv-snippet">{highlight(r.snippet, r.ranges)}</span>
                    </button>
                  </li>
                ))}
            </ul>
          )
        ) : !loaded ? (
          <div className="sidebar-note">
            <Spinner label="Loading conversations" />
          </div>
        ) : visible.length === 0 ? (
          <EmptyState title="No conversations yet">Start one with New chat.</EmptyState>
        ) : (
          <ul className="conv-list">
            {visible.map((c) => (
              <ConversationRow
                key={c.id}
                conversation={c}
                active={c.id === activeId}
                time={formatTime(c.updatedAt)}
                onOpen={() => void open(c.id)}
                space={space}
                onDelete={() => setConfirming(c)}
                onMove={() => setMoving(c)}
              />
            ))}
          </ul>
        )}
      </div>
      {moving && (
        <MoveConversationDialog
          id={moving.id}
          title={moving.title || 'Untitled'}
          onClose={() => setMoving(null)}
        />
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={ask.title}
        confirmLabel={ask.confirmLabel}
        danger
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) remove(confirming.id);
          setConfirming(null);
        }}
      >
        <ConfirmBody ask={ask} />
      </ConfirmDialog>
    </nav>
  );
}

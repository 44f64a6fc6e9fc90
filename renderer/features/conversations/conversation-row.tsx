// One conversation in the sidebar: opens on click; rename inline (Enter saves, Escape cancels); delete.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { ConversationSummary } from '../../../shared/channels/conversations';
import { Icon, IconButton } from '../../components';
import { useConversations } from '../../store/conversations';
import { spaceColourStyle } from '../spaces/space-label';

export function ConversationRow({
  conversation,
  active,
  time,
  space,
  onOpen,
  onDelete,
  onMove,
}: {
  conversation: ConversationSummary;
  active: boolean;
  time: string;
  /** The space it belongs to (its colour marks the row). */
  space: { name: string; colour: string };
  onOpen: () => void;
  onDelete: () => void;
  onMove: () => void;
}): ReactElement {
  const rename = useConversations((s) => s.rename);
  const setSearchable = useConversations((s) => s.setSearchable);
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const inputRef = useRef<HTMLInputElement>(null);
  const name = conversation.title || 'Untitled';

  useEffect(() => {
    if (editing) inputRef.current?.select();
  }, [editing]);

  const save = async (): Promise<void> => {
    const next = title.trim();
    if (!next || next === conversation.title) {
      setEditing(false);
      return;
    }
    if (await rename(conversation.id, next)) setEditing(false);
  };

  if (editing) {
    return (
      <li className="conv-row conv-row-editing">
        <input
          ref={inputRef}
          className="input conv-rename"
          aria-label="Conversation title"
          value={title}
          maxLength={200}
          onChange={(e) => setTitle(e.target.value)}
          onBlur={() => void save()}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void save();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              setTitle(conversation.title);
              setEditing(false);
            }
          }}
        />
      </li>
    );
  }

  return (
    <li className={`conv-row${active ? ' is-active' : ''}`}>
      <button
        type="button"
        className="conv-open sp-marked"
        style={spaceColourStyle(space.colour)}
        aria-current={active ? 'page' : undefined}
        onClick={onOpen}
        onDoubleClick={() => {
          setTitle(conversation.title);
          setEditing(true);
        }}
      >
        {!conversation.memory && (
          <span className="conv-flag" title="Memory off">
            <Icon name="noMemory" size={12} />
            <span className="visually-hidden">Memory off: </span>
          </span>
        )}
        {conversation.noSearch && (
          <span className="conv-flag" title="Not searched">
            <Icon name="search" size={12} />
            <span className="visually-hidden">Not searched: </span>
          </span>
        )}
        <span className="conv-title">{name}</span>
        <span className="conv-time">{time}</span>
      </button>
      <span className="conv-actions">
        <IconButton
          size="sm"
          label={`Rename “${name}”`}
          icon="edit"
          onClick={() => {
            setTitle(conversation.title);
            setEditing(true);
          }}
        />
        <IconButton size="sm" label={`Move “${name}” to another space`} icon="folder" onClick={onMove} />
        {conversation.memory && (
          <IconButton
            size="sm"
            label={conversation.noSearch ? `Search “${name}” again` : `Don't search “${name}”`}
            icon="search"
            onClick={() => void setSearchable(conversation.id, conversation.noSearch === true)}
          />
        )}
        <IconButton size="sm" label={`Delete “${name}”`} icon="trash" onClick={onDelete} />
      </span>
    </li>
  );
}

// User and assistant messages with their actions: copy, pin; edit-and-resend on a user message;
// regenerate on the last answer.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Button, Icon, IconButton, Markdown } from '../../components';
import { selectRunning, useChat, type ChatItem } from '../../store/chat';
import { copyText } from '../../store/links';

type UserItem = Extract<ChatItem, { kind: 'user' }>;
type AssistantItem = Extract<ChatItem, { kind: 'assistant' }>;

function CopyButton({ text }: { text: string }): ReactElement {
  const [copied, setCopied] = useState(false);
  return (
    <IconButton
      size="sm"
      label={copied ? 'Copied' : 'Copy'}
      icon={copied ? 'check' : 'copy'}
      onClick={() => {
        void copyText(text).then((ok) => {
          if (!ok) return;
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    />
  );
}

function PinButton({
  id,
  pinned,
  disabled,
}: {
  id: string;
  pinned: boolean;
  disabled?: boolean;
}): ReactElement {
  const pin = useChat((s) => s.pin);
  return (
    <IconButton
      size="sm"
      label={pinned ? 'Unpin' : 'Pin'}
      title={pinned ? 'Unpin (may be compacted)' : 'Pin (survives compaction)'}
      icon="pin"
      pressed={pinned}
      disabled={disabled}
      onClick={() => void pin(id, !pinned)}
    />
  );
}

export function UserMessage({ item }: { item: UserItem }): ReactElement {
  const [editing, setEditing] = useState(false);
  const running = useChat(selectRunning);
  if (editing) return <EditMessage item={item} onDone={() => setEditing(false)} />;
  return (
    <article className="msg msg-user" aria-label="You">
      <div className="msg-bubble">
        <p className="msg-user-text">{item.text}</p>
      </div>
      <div className="msg-actions">
        {item.pinned && <PinnedBadge />}
        <CopyButton text={item.text} />
        <PinButton id={item.id} pinned={item.pinned} disabled={item.pending} />
        <IconButton
          size="sm"
          label="Edit"
          title="Edit and resend"
          icon="edit"
          disabled={running || item.pending}
          onClick={() => setEditing(true)}
        />
      </div>
    </article>
  );
}

function EditMessage({ item, onDone }: { item: UserItem; onDone: () => void }): ReactElement {
  const [text, setText] = useState(item.text);
  const editResend = useChat((s) => s.editResend);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const submit = async (): Promise<void> => {
    const value = text.trim();
    if (!value) return;
    if (await editResend(item.id, value)) onDone();
  };
  return (
    <form
      className="msg msg-user msg-editing"
      aria-label="Edit message"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label className="visually-hidden" htmlFor={`edit-${item.id}`}>
        Edited message
      </label>
      <textarea
        id={`edit-${item.id}`}
        ref={ref}
        className="textarea msg-edit-input"
        value={text}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onDone();
          } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void submit();
          }
        }}
      />
      <p className="msg-edit-note">Everything after this message is replaced by the new answer.</p>
      <div className="msg-edit-actions">
        <Button size="sm" onClick={onDone}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" type="submit" disabled={!text.trim()}>
          Save and resend
        </Button>
      </div>
    </form>
  );
}

export function AssistantMessage({ item, isLast }: { item: AssistantItem; isLast: boolean }): ReactElement {
  const running = useChat(selectRunning);
  const regenerate = useChat((s) => s.regenerate);
  return (
    <article className="msg msg-assistant" aria-label="Mnemo" aria-busy={item.streaming}>
      <div className="msg-body">
        {item.text ? (
          <Markdown text={item.text} live={item.streaming} />
        ) : (
          item.streaming && <span className="msg-thinking">Thinking…</span>
        )}
        {item.streaming && <span className="stream-caret" aria-hidden="true" />}
      </div>
      {item.interrupted && !item.streaming && (
        <p className="msg-interrupted">
          <Icon name="stop" size={12} /> Stopped
        </p>
      )}
      {/* The row is always there (empty while streaming) so the answer does not grow when it ends. */}
      <div className="msg-actions">
        {!item.streaming && (
          <>
            {item.pinned && <PinnedBadge />}
            <CopyButton text={item.text} />
            <PinButton id={item.id} pinned={item.pinned} />
            {isLast && (
              <IconButton
                size="sm"
                label="Regenerate"
                icon="refresh"
                disabled={running}
                onClick={() => void regenerate()}
              />
            )}
          </>
        )}
      </div>
    </article>
  );
}

function PinnedBadge(): ReactElement {
  return <span className="msg-pinned">Pinned</span>;
}

// The message box: Enter sends, Shift+Enter adds a line, Escape stops a run. It grows with its text up
// to a limit, and keeps its height while a run streams (no layout jumps).
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Button, Icon } from '../../components';
import { selectRunning, useChat } from '../../store/chat';
import { useUi } from '../../store/ui';
import './composer.css';

const MAX_HEIGHT = 240;

export function Composer(): ReactElement {
  const [text, setText] = useState('');
  const running = useChat(selectRunning);
  const activeRunId = useChat((s) => s.activeRunId);
  const send = useChat((s) => s.send);
  const stop = useChat((s) => s.stop);
  const conversationId = useChat((s) => s.conversationId);
  const newChatMemory = useChat((s) => s.newChatMemory);
  const focusRequest = useUi((s) => s.focusComposer);
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    ref.current?.focus();
  }, [focusRequest, conversationId]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`;
  }, [text]);

  const submit = async (): Promise<void> => {
    const value = text.trim();
    if (!value || running) return;
    setText('');
    const ok = await send(value);
    // Nothing typed is lost: a refused send puts the text back.
    if (!ok) setText((current) => current || value);
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {conversationId === null && !newChatMemory && (
        <p className="composer-note">
          <Icon name="noMemory" size={14} /> Temporary chat: memory is off and nothing is remembered.
        </p>
      )}
      <div className="composer-box">
        <label htmlFor="composer-input" className="visually-hidden">
          Message
        </label>
        <textarea
          id="composer-input"
          ref={ref}
          className="composer-input"
          rows={1}
          placeholder="Message Mnemo…"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void submit();
            } else if (e.key === 'Escape' && activeRunId) {
              e.preventDefault();
              void stop();
            }
          }}
        />
        <div className="composer-actions">
          {activeRunId ? (
            <Button variant="secondary" icon="stop" onClick={() => void stop()} className="composer-stop">
              Stop
            </Button>
          ) : (
            <Button type="submit" variant="primary" icon="send" disabled={!text.trim() || running}>
              Send
            </Button>
          )}
        </div>
      </div>
      <p className="composer-hint" aria-hidden="true">
        <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line · <kbd>?</kbd> for
        shortcuts
      </p>
    </form>
  );
}

// A run's error, inline where it happened, with Retry (resends without duplicating the user's turn).
import type { ReactElement } from 'react';
import { Button, Icon } from '../../../components';
import { selectRunning, useChat, type ChatItem } from '../../../store/chat';
import { useUi } from '../../../store/ui';

type ErrorItem = Extract<ChatItem, { kind: 'error' }>;

const titles: Record<string, string> = {
  rate_limit: 'Rate limited',
  overloaded: 'The API is overloaded',
  server: 'The API had a problem',
  auth: 'The API key was refused',
  connection: 'Could not reach the API',
  stalled: 'The answer stalled',
  invalid_request: 'The request was refused',
  no_api_key: 'No API key',
  internal: 'Something went wrong',
};

export function ErrorCard({ item }: { item: ErrorItem }): ReactElement {
  const retry = useChat((s) => s.retry);
  const running = useChat(selectRunning);
  const openSettings = useUi((s) => s.openSettings);
  const needsKey = item.errorKind === 'auth' || item.errorKind === 'no_api_key';
  return (
    <section className="card card-error error-card" role="alert" aria-label="Error">
      <div className="error-card-text">
        <Icon name="alert" size={16} />
        <div>
          <p className="error-card-title">{titles[item.errorKind] ?? 'Error'}</p>
          <p className="error-card-message">{item.message}</p>
        </div>
      </div>
      <div className="card-actions">
        {needsKey && (
          <Button size="sm" onClick={() => openSettings(true)}>
            Open settings
          </Button>
        )}
        <Button
          size="sm"
          variant="primary"
          icon="refresh"
          disabled={running}
          onClick={() => void retry(item.id)}
        >
          Retry
        </Button>
      </div>
    </section>
  );
}

// A memory change the agent made in this conversation: the path and command, expandable to the diff,
// with Undo (reverts exactly that journaled change).
import { useEffect, useState, type ReactElement } from 'react';
import { Button, DiffView, Spinner } from '../../../components';
import { errorMessage } from '../../../lib/format';
import { useChat, type ChatItem } from '../../../store/chat';
import { Card } from './card';

type MemoryItem = Extract<ChatItem, { kind: 'memory' }>;

const verbs: Record<string, string> = {
  create: 'Created',
  str_replace: 'Edited',
  insert: 'Edited',
  delete: 'Deleted',
  rename: 'Renamed',
  write: 'Saved',
  revert: 'Reverted',
};

export function MemoryCard({ item }: { item: MemoryItem }): ReactElement {
  const revert = useChat((s) => s.revertMemory);
  const [busy, setBusy] = useState(false);
  const verb = verbs[item.command] ?? 'Changed';
  const target = item.newPath ? `${item.path} → ${item.newPath}` : item.path;
  const summary = `Memory · ${verb} ${target}`;
  return (
    <Card
      icon="memory"
      tone="memory"
      label={summary}
      summary={summary}
      meta={item.reverted ? <span className="badge">Undone</span> : undefined}
      actions={
        item.journalId && !item.reverted ? (
          <Button
            size="sm"
            variant="ghost"
            icon="undo"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void revert(item.journalId!).finally(() => setBusy(false));
            }}
          >
            Undo
          </Button>
        ) : undefined
      }
    >
      {item.journalId ? <MemoryDiff journalId={item.journalId} path={item.path} /> : undefined}
    </Card>
  );
}

function MemoryDiff({ journalId, path }: { journalId: string; path: string }): ReactElement {
  const load = useChat((s) => s.loadMemoryDiff);
  const [state, setState] = useState<
    | { status: 'loading' }
    | { status: 'ok'; before: string | null; after: string | null }
    | { status: 'error'; message: string }
  >({ status: 'loading' });
  useEffect(() => {
    let live = true;
    load(journalId).then(
      (d) => live && setState({ status: 'ok', ...d }),
      (err: unknown) => live && setState({ status: 'error', message: errorMessage(err) }),
    );
    return () => {
      live = false;
    };
  }, [journalId, load]);
  if (state.status === 'loading') return <Spinner label="Loading the change" />;
  if (state.status === 'error') return <p className="card-error-text">{state.message}</p>;
  return <DiffView before={state.before} after={state.after} label={`Changes to ${path}`} />;
}

// A memory change the agent made in this conversation: the path and command, expandable to the diff,
// with Undo (reverts exactly that journaled change).
import { useEffect, useState, type ReactElement } from 'react';
import { Button, DiffView, Spinner } from '../../../components';
import { errorMessage, formatDuration } from '../../../lib/format';
import { toast } from '../../../store/toast';
import { useChat, type ChatItem } from '../../../store/chat';
import { Card } from './card';

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

const verbs: Record<string, string> = {
  create: 'Created',
  str_replace: 'Edited',
  insert: 'Edited',
  delete: 'Deleted',
  rename: 'Renamed',
  write: 'Saved',
  revert: 'Reverted',
};

/** A memory tool call that changed a file: the change, its diff and Undo (the journal entry is looked up). */
export function MemoryToolCard({
  item,
  target,
}: {
  item: ToolItem;
  target: { command: string; path: string; newPath?: string | undefined };
}): ReactElement {
  const revert = useChat((s) => s.revertMemory);
  const resolve = useChat((s) => s.resolveJournalId);
  const [busy, setBusy] = useState(false);
  const verb = verbs[target.command] ?? 'Changed';
  const summary = `Memory · ${verb} ${target.newPath ? `${target.path} → ${target.newPath}` : target.path}`;
  const undo = async (): Promise<void> => {
    setBusy(true);
    try {
      const journalId = item.journalId ?? (await resolve(item.toolUseId, target.path));
      if (journalId) await revert(journalId);
      else toast('This change is no longer in the memory history.', { tone: 'warning' });
    } catch (err) {
      toast(errorMessage(err), { tone: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card
      icon="memory"
      tone="memory"
      label={summary}
      summary={summary}
      meta={
        <>
          {item.reverted && <span className="badge">Undone</span>}
          {item.durationMs !== null && <span>{formatDuration(item.durationMs)}</span>}
        </>
      }
      actions={
        item.reverted ? undefined : (
          <Button size="sm" variant="ghost" icon="undo" disabled={busy} onClick={() => void undo()}>
            Undo
          </Button>
        )
      }
    >
      <ToolChangeDiff item={item} path={target.path} />
    </Card>
  );
}

function ToolChangeDiff({ item, path }: { item: ToolItem; path: string }): ReactElement {
  const resolve = useChat((s) => s.resolveJournalId);
  // Known from the stored result (or the live event); a record from before that is looked up.
  const [looked, setJournalId] = useState<string | null | undefined>(undefined);
  const journalId = item.journalId ?? looked;
  useEffect(() => {
    if (journalId !== undefined) return;
    let live = true;
    resolve(item.toolUseId, path).then(
      (id) => live && setJournalId(id),
      () => live && setJournalId(null),
    );
    return () => {
      live = false;
    };
  }, [journalId, item.toolUseId, path, resolve]);
  if (journalId === undefined) return <Spinner label="Loading the change" />;
  if (journalId === null) return <p className="card-note">{item.result}</p>;
  return <MemoryDiff journalId={journalId} path={path} />;
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

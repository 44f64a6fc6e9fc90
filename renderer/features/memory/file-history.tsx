// A file's history: every journaled change, newest first, with who made it and where (provenance), its
// diff on demand and Revert.
import { useState } from 'react';
import type { JournalEntry } from '../../../shared/channels/memory';
import type { ResOut } from '../../../shared/contract';
import { loadDiff, revertChange, useMemoryStore } from '../../store/memory';
import { errorMessage } from '../../lib/format';
import { formatAbsolute, formatWhen } from './format';
import { DiffView } from '../../components/diff-view';
import { Button } from '../../components/button';
import { toast } from '../../store/toast';
import { requestOpenConversation } from './navigate';

const actors: Record<JournalEntry['actor'], string> = {
  agent: 'Claude',
  user: 'You',
  external: 'Another program',
  import: 'Import',
  system: 'Mnemo',
  sync: 'Another device',
};

const verbs: Record<string, string> = {
  create: 'created',
  str_replace: 'edited',
  insert: 'added to',
  delete: 'deleted',
  rename: 'renamed',
  write: 'edited',
  forgetFact: 'forgot a fact in',
  revert: 'reverted',
  restore: 'restored',
  import: 'imported',
  forget: 'forgot',
  external: 'changed',
};

export function describeEntry(entry: JournalEntry): string {
  // A copy or move between spaces says which space (by the name it had then); a change that came by
  // sync, which device it came from.
  const across = entry.fromSpace
    ? ` (from ‘${entry.fromSpace.name}’)`
    : entry.toSpace
      ? ` (to ‘${entry.toSpace.name}’)`
      : '';
  const who = entry.actor === 'sync' && entry.device ? `${entry.device} (synced)` : actors[entry.actor];
  return `${who} ${verbs[entry.command] ?? entry.command}${across}`;
}

export function Provenance({ entry }: { entry: JournalEntry }) {
  const when = formatWhen(entry.at);
  if (entry.conversationId && entry.conversationTitle) {
    const conversationId = entry.conversationId;
    return (
      <span className="mp-provenance">
        written in{' '}
        <button
          type="button"
          className="mp-link"
          title={`Open ‘${entry.conversationTitle}’`}
          onClick={() =>
            requestOpenConversation({
              conversationId,
              ...(entry.messageId || entry.toolUseId
                ? { messageId: entry.messageId ?? entry.toolUseId }
                : {}),
            })
          }
        >
          ‘{entry.conversationTitle}’
        </button>{' '}
        at <time dateTime={entry.at}>{when}</time>
      </span>
    );
  }
  return (
    <span className="mp-provenance">
      {describeEntry(entry)} at <time dateTime={entry.at}>{when}</time>
    </span>
  );
}

type Diff = ResOut<'memory.diff'>;

function HistoryItem({ entry }: { entry: JournalEntry }) {
  const [diff, setDiff] = useState<Diff | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    if (!open && !diff) {
      try {
        setDiff(await loadDiff(entry.id));
      } catch (err) {
        toast(errorMessage(err), { tone: 'error' });
        return;
      }
    }
    setOpen(!open);
  };
  const revert = async () => {
    setBusy(true);
    try {
      await revertChange(entry.id);
      toast('Reverted that change.', { tone: 'success' });
    } catch (err) {
      toast(errorMessage(err), { tone: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="mp-history__item" aria-label={`${describeEntry(entry)} ${formatAbsolute(entry.at)}`}>
      <div className="mp-history__head">
        <span className="mp-history__what">
          <strong>{describeEntry(entry)}</strong> · <Provenance entry={entry} />
          {entry.newPath && <span className="mp-row__meta"> → {entry.newPath}</span>}
        </span>
        <span className="mp-history__actions">
          <Button size="sm" aria-expanded={open} onClick={() => void toggle()}>
            {open ? 'Hide diff' : 'Diff'}
          </Button>
          {entry.revertible && (
            <Button size="sm" disabled={busy} onClick={() => void revert()}>
              {busy ? 'Reverting…' : 'Revert'}
            </Button>
          )}
        </span>
      </div>
      {open && diff && <DiffView before={diff.before} after={diff.after} label={`Changes to ${diff.path}`} />}
    </li>
  );
}

export function FileHistory() {
  const history = useMemoryStore((s) => s.history);
  const status = useMemoryStore((s) => s.historyStatus);
  if (status === 'loading' && history.length === 0) return <p className="mp-empty">Loading history…</p>;
  if (status === 'error') return <p className="mp-error">The history could not be loaded.</p>;
  if (history.length === 0) return <p className="mp-empty">No recorded changes yet.</p>;
  return (
    <ol className="mp-history" aria-label="History">
      {history.map((entry) => (
        <HistoryItem key={entry.id} entry={entry} />
      ))}
    </ol>
  );
}

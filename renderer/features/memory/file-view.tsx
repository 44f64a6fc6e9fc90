// One memory file: where it came from (provenance), its facts with Forget, the editor and its history.
import { Button } from '../../components/button';
import { useEffect, useState } from 'react';
import { closeFile, loadHistory, useMemoryStore } from '../../store/memory';
import { formatAbsolute, formatBytes, formatRelative } from './format';
import { FactList } from './fact-list';
import { FileHistory, Provenance } from './file-history';
import { EditorPane } from './editor-pane';
import { MemoryFileTransfer } from '../spaces';

type View = 'facts' | 'edit' | 'history';
const views: { id: View; label: string }[] = [
  { id: 'facts', label: 'Facts' },
  { id: 'edit', label: 'Edit' },
  { id: 'history', label: 'History' },
];

export interface FileViewProps {
  onDelete: (path: string) => void;
  onRename: (path: string) => void;
  onForget: (path: string) => void;
}

export function FileView({ onDelete, onRename, onForget }: FileViewProps) {
  const selected = useMemoryStore((s) => s.selected)!;
  const file = useMemoryStore((s) => s.file);
  const status = useMemoryStore((s) => s.fileStatus);
  const error = useMemoryStore((s) => s.fileError);
  const entry = useMemoryStore((s) => s.entries.find((e) => e.path === selected));
  const history = useMemoryStore((s) => (s.historyFor === selected ? s.history : []));
  const [view, setView] = useState<View>('facts');

  useEffect(() => {
    void loadHistory(selected);
  }, [selected]);

  const latest = history.find((h) => h.command !== 'view');
  return (
    <article className="mp-file" aria-label={`File ${selected}`}>
      <header className="mp-file__header">
        <Button size="sm" onClick={closeFile}>
          ← All files
        </Button>
        <h3 className="mp-file__path" title={selected}>
          {selected}
        </h3>
        <p className="mp-row__meta">
          {entry && (
            <>
              {formatBytes(entry.size)} · written{' '}
              <span title={formatAbsolute(entry.modifiedAt)}>{formatRelative(entry.modifiedAt)}</span> ·{' '}
              {entry.lastReadAt ? `read ${formatRelative(entry.lastReadAt)}` : 'never read'}
              {entry.stale && <span className="mp-badge mp-badge--warning">Stale</span>}
            </>
          )}
        </p>
        {latest && (
          <p className="mp-file__provenance">
            Last change: <Provenance entry={latest} />
          </p>
        )}
        <div className="mp-file__actions">
          <Button size="sm" onClick={() => onRename(selected)}>
            Rename
          </Button>
          <MemoryFileTransfer path={selected} />
          <Button size="sm" variant="ghost" className="mp-danger-text" onClick={() => onDelete(selected)}>
            Delete
          </Button>
          <Button size="sm" variant="ghost" className="mp-danger-text" onClick={() => onForget(selected)}>
            Forget permanently
          </Button>
        </div>
      </header>
      <div className="mp-segmented" role="tablist" aria-label="File view">
        {views.map((v) => (
          <button
            key={v.id}
            type="button"
            role="tab"
            id={`mp-tab-${v.id}`}
            aria-selected={view === v.id}
            aria-controls="mp-file-body"
            tabIndex={view === v.id ? 0 : -1}
            className="mp-segmented__item"
            onClick={() => setView(v.id)}
            onKeyDown={(e) => {
              const at = views.findIndex((x) => x.id === view);
              const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
              if (!step) return;
              const next = views[(at + step + views.length) % views.length]!;
              setView(next.id);
              document.getElementById(`mp-tab-${next.id}`)?.focus();
            }}
          >
            {v.label}
          </button>
        ))}
      </div>
      <div id="mp-file-body" role="tabpanel" aria-labelledby={`mp-tab-${view}`} className="mp-file__body">
        {status === 'error' && (
          <p className="mp-error" role="alert">
            {error}
          </p>
        )}
        {!file && status === 'loading' && <p className="mp-empty">Loading…</p>}
        {file && view === 'facts' && <FactList facts={file.facts} />}
        {file && view === 'edit' && (
          <EditorPane key={file.path} file={file} onDone={() => setView('facts')} />
        )}
        {view === 'history' && <FileHistory />}
      </div>
    </article>
  );
}

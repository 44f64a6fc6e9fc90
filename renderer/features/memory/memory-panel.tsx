// The Memory tab: search, the folder tree (or search hits, or one file's view), export/import. Rendered by
// the layout's side panel; everything it shows comes from the memory slice.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { Spinner } from '../../components/spinner';
import { clearSearch, loadList, openFile, search, toggleFolder, useMemoryStore } from '../../store/memory';
import { useUi } from '../../store/ui';
import { FileView } from './file-view';
import { formatBytes } from './format';
import { MemoryTree } from './memory-tree';
import { SearchResults } from './search-results';
import { StaleReview } from './stale-review';
import { MemoryTransfer } from './transfer';
import { useFileDialogs } from './file-dialogs';
import { SpaceLabel } from '../spaces';
import { SyncConflictCards } from '../sync';
import { useCurrentSpace } from '../spaces/use-spaces';
import './memory.css';

export function MemoryPanel(): ReactElement {
  const selected = useMemoryStore((s) => s.selected);
  const query = useMemoryStore((s) => s.query);
  const { open, dialogs } = useFileDialogs();

  useEffect(() => {
    void loadList();
  }, []);

  const onDelete = (path: string) => open({ kind: 'delete', path });
  let body: ReactElement;
  if (selected) {
    body = (
      <FileView
        onDelete={onDelete}
        onRename={(path) => open({ kind: 'rename', path })}
        onForget={(path) => open({ kind: 'forget', path })}
      />
    );
  } else if (query.trim()) body = <SearchResults />;
  else body = <Files onDelete={onDelete} onCreate={() => open({ kind: 'create' })} />;

  return (
    <section className="mp-panel" aria-label="Memory">
      <div className="sp-view-head">
        <SpaceLabel prefix="Memory of" />
      </div>
      <div className="mp-toolbar">
        <SearchBox />
        <Button size="sm" icon="plus" onClick={() => open({ kind: 'create' })}>
          New file
        </Button>
      </div>
      <div className="mp-body">
        <SyncConflictCards />
        {body}
      </div>
      <Footer />
      {dialogs}
    </section>
  );
}

function SearchBox(): ReactElement {
  const query = useMemoryStore((s) => s.query);
  const searching = useMemoryStore((s) => s.searchStatus === 'loading');
  const [text, setText] = useState(query);
  const input = useRef<HTMLInputElement>(null);
  const focusRequest = useUi((s) => s.focusMemorySearch);
  const spaceName = useCurrentSpace().name;

  useEffect(() => {
    if (focusRequest > 0) input.current?.focus();
  }, [focusRequest]);

  // Typing is debounced so each keystroke does not cost a search across every file.
  useEffect(() => {
    if (text === useMemoryStore.getState().query) return;
    const timer = setTimeout(() => void search(text), 150);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <div className="mp-search" role="search">
      <input
        ref={input}
        type="search"
        className="input mp-search__input"
        aria-label="Search memory"
        placeholder={`Search memory in ${spaceName}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && text) {
            e.stopPropagation();
            setText('');
            clearSearch();
          } else if (e.key === 'Enter') void search(text);
        }}
      />
      {searching && <Spinner label="Searching" size={14} />}
    </div>
  );
}

function Files({
  onDelete,
  onCreate,
}: {
  onDelete: (path: string) => void;
  onCreate: () => void;
}): ReactElement {
  const entries = useMemoryStore((s) => s.entries);
  const status = useMemoryStore((s) => s.listStatus);
  const error = useMemoryStore((s) => s.listError);
  const collapsed = useMemoryStore((s) => s.collapsed);
  const selected = useMemoryStore((s) => s.selected);
  if (status === 'error') {
    return (
      <EmptyState
        icon="alert"
        title="Memory could not be loaded"
        actions={
          <Button size="sm" onClick={() => void loadList()}>
            Retry
          </Button>
        }
      >
        {error}
      </EmptyState>
    );
  }
  if (status !== 'ready') return <Spinner label="Loading memory" />;
  if (!entries.some((e) => e.kind === 'file')) {
    return (
      <EmptyState
        icon="memory"
        title="Nothing remembered yet"
        actions={
          <Button size="sm" icon="plus" onClick={onCreate}>
            New file
          </Button>
        }
      >
        When Claude saves something worth keeping, it appears here as a Markdown file you can read, edit or
        forget.
      </EmptyState>
    );
  }
  return (
    <>
      <StaleReview onDelete={onDelete} />
      <MemoryTree
        entries={entries}
        collapsed={collapsed}
        selected={selected}
        onToggle={toggleFolder}
        onOpen={(path) => void openFile(path)}
        onDelete={onDelete}
      />
    </>
  );
}

function Footer(): ReactElement {
  const totalBytes = useMemoryStore((s) => s.totalBytes);
  const files = useMemoryStore((s) => s.entries.filter((e) => e.kind === 'file').length);
  return (
    <footer className="mp-footer">
      <span className="mp-row__meta">
        {files} {files === 1 ? 'file' : 'files'} · {formatBytes(totalBytes)}
      </span>
      <MemoryTransfer />
    </footer>
  );
}

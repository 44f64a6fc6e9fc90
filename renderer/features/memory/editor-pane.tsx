// Edit a memory file: the lazy CodeMirror editor, Save (Ctrl/Cmd+S) with the version it opened, and on a
// `conflict` the dialog showing both versions: keep mine (save over theirs) or take theirs.
import { lazy, Suspense, useState } from 'react';
import { saveFile, setEditorDirty, useMemoryStore, type OpenFile } from '../../store/memory';
import { DiffView } from '../../components/diff-view';
import { Dialog } from '../../components/dialog';
import { Button } from '../../components/button';
import { toast } from '../../store/toast';

const MarkdownEditor = lazy(() => import('./markdown-editor'));

export function EditorPane({ file, onDone }: { file: OpenFile; onDone: () => void }) {
  const [text, setText] = useState(file.content);
  const [base, setBase] = useState({ version: file.version, content: file.content });
  const [generation, setGeneration] = useState(0);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<OpenFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  const changedOnDisk = useMemoryStore((s) => s.changedOnDisk);
  const dirty = text !== base.content;

  // A change on disk while the editor holds no edits of its own: show the new text (adjusting state
  // during render, React's pattern for deriving from changed props).
  const [seenVersion, setSeenVersion] = useState(file.version);
  if (file.version !== seenVersion) {
    setSeenVersion(file.version);
    if (!dirty) {
      setText(file.content);
      setBase({ version: file.version, content: file.content });
      setGeneration((g) => g + 1);
    }
  }

  const onChange = (next: string) => {
    setText(next);
    setEditorDirty(next !== base.content);
  };

  const save = async (content = text, baseVersion: string | null = base.version) => {
    if (saving) return;
    setSaving(true);
    setError(null);
    const result = await saveFile(file.path, content, baseVersion);
    setSaving(false);
    if (result.kind === 'saved') {
      setConflict(null);
      toast(`Saved ${file.path}`, { tone: 'success' });
      onDone();
    } else if (result.kind === 'conflict') setConflict(result.theirs);
    else setError(result.message);
  };

  const takeTheirs = (theirs: OpenFile) => {
    setText(theirs.content);
    setBase({ version: theirs.version, content: theirs.content });
    setGeneration((g) => g + 1);
    setEditorDirty(false);
    setConflict(null);
  };

  const cancel = () => {
    setEditorDirty(false);
    onDone();
  };

  return (
    <div className="mp-editor">
      {changedOnDisk && (
        <p className="mp-notice" role="status">
          This file changed on disk while you were editing. Saving will ask which version to keep.
        </p>
      )}
      <div className="mp-editor__frame">
        <Suspense fallback={<p className="mp-empty">Loading the editor…</p>}>
          <MarkdownEditor
            key={generation}
            initial={text}
            label={`Edit ${file.path}`}
            onChange={onChange}
            onSave={() => void save()}
          />
        </Suspense>
      </div>
      {error && (
        <p className="mp-error" role="alert">
          {error}
        </p>
      )}
      <div className="mp-editor__bar">
        <span className="mp-row__meta" aria-live="polite">
          {saving ? 'Saving…' : dirty ? 'Unsaved changes' : 'No changes'}
        </span>
        <Button onClick={cancel}>{dirty ? 'Discard' : 'Close editor'}</Button>
        <Button variant="primary" disabled={!dirty || saving} onClick={() => void save()}>
          Save
        </Button>
      </div>
      {conflict && (
        <Dialog
          open
          title="This file changed since you opened it"
          size="lg"
          onClose={() => setConflict(null)}
          footer={
            <>
              <Button onClick={() => setConflict(null)}>Cancel</Button>
              <Button onClick={() => takeTheirs(conflict)}>Take theirs</Button>
              <Button variant="primary" onClick={() => void save(text, conflict.version)}>
                Keep mine
              </Button>
            </>
          }
        >
          <p>
            Someone else (Claude or another program) saved <code>{conflict.path}</code> after you opened it.
            Keep your version, or take theirs and lose your edits. Below: what keeping yours would change in
            theirs.
          </p>
          <div className="mp-conflict">
            <section aria-label="Their version">
              <h3 className="mp-section-title">Theirs</h3>
              <pre className="mp-conflict__text">{conflict.content}</pre>
            </section>
            <section aria-label="Your version">
              <h3 className="mp-section-title">Yours</h3>
              <pre className="mp-conflict__text">{text}</pre>
            </section>
          </div>
          <DiffView before={conflict.content} after={text} label="Theirs to yours" />
        </Dialog>
      )}
    </div>
  );
}

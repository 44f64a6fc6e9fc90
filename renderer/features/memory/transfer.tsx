// "Export memory" and "Import memory". Export: a save dialog in Electron, a download in the browser.
// Import: Electron opens a dialog on the main side; the browser uploads the chosen .zip first. Either way
// the user sees a preview (added, changed, conflicts, refused) before anything is written.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import type { ResOut } from '../../../shared/contract';
import { startDownload, uploadForImport } from '../../api';
import { Button } from '../../components/button';
import { TABLE } from '../../../shared/confirmations.js';
import { Dialog } from '../../components/dialog';
import { Spinner } from '../../components/spinner';
import { errorMessage } from '../../lib/format';
import { applyImport, exportMemory, previewImport } from '../../store/memory';
import { host } from './host';
import { toast } from '../../store/toast';

type Preview = NonNullable<ResOut<'memory.importPreview'>['preview']>;
type Skipped = ResOut<'memory.export'>['skipped'];
type Busy = null | 'export' | 'upload' | 'preview' | 'apply';

export function MemoryTransfer(): ReactElement {
  const [busy, setBusy] = useState<Busy>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [overwrite, setOverwrite] = useState(false);
  // The journal (every file's change history) is left out by default: it can be large and holds what was
  // deliberately forgotten up to its pruning; a full backup asks for it.
  const [withHistory, setWithHistory] = useState(false);
  // What the last export left out: shown until dismissed, since a toast would be gone before it is read.
  const [skipped, setSkipped] = useState<Skipped>([]);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void host();
  }, []);

  const onExport = async () => {
    setBusy('export');
    try {
      const res = await exportMemory(withHistory);
      const left = res.skipped.length;
      const note = left > 0 ? ` (${left} ${left === 1 ? 'item' : 'items'} left out)` : '';
      if (res.downloadUrl) {
        startDownload(res.downloadUrl);
        toast(`Downloading ${res.fileName ?? 'memory.zip'}${note}`, { tone: 'success' });
      } else if (res.saved) toast(`Saved ${res.fileName ?? 'the export'}${note}`, { tone: 'success' });
      if (left > 0 && (res.downloadUrl || res.saved)) setSkipped(res.skipped);
    } catch (err) {
      toast(`Export failed: ${errorMessage(err)}`, { tone: 'error', timeoutMs: 15_000 });
    } finally {
      setBusy(null);
    }
  };

  const showPreview = async (uploadId?: string) => {
    setBusy('preview');
    try {
      const res = await previewImport(uploadId);
      if (res.preview) {
        setOverwrite(false);
        setPreview(res.preview);
      }
    } catch (err) {
      toast(`Import failed: ${errorMessage(err)}`, { tone: 'error', timeoutMs: 15_000 });
    } finally {
      setBusy(null);
    }
  };

  const onImport = async () => {
    if ((await host()) === 'electron') void showPreview();
    else fileInput.current?.click();
  };

  const onFile = async (file: File | undefined) => {
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    if (!/\.zip$/i.test(file.name)) {
      toast('Choose a .zip file exported from Mnemo (or any zip of Markdown files).', {
        tone: 'error',
        timeoutMs: 15_000,
      });
      return;
    }
    setBusy('upload');
    try {
      const uploadId = await uploadForImport(file, file.name);
      await showPreview(uploadId);
    } catch (err) {
      setBusy(null);
      toast(`Import failed: ${errorMessage(err)}`, { tone: 'error', timeoutMs: 15_000 });
    }
  };

  const onApply = async () => {
    if (!preview) return;
    setBusy('apply');
    try {
      const res = await applyImport(preview.token, overwrite);
      setPreview(null);
      toast(`Imported: ${res.added} added, ${res.changed} changed, ${res.skipped} skipped.`, {
        tone: 'success',
      });
    } catch (err) {
      toast(`Import failed: ${errorMessage(err)}`, { tone: 'error', timeoutMs: 15_000 });
    } finally {
      setBusy(null);
    }
  };

  const label: Record<Exclude<Busy, null>, string> = {
    export: 'Exporting memory…',
    upload: 'Uploading…',
    preview: 'Reading the archive…',
    apply: 'Importing…',
  };

  return (
    <div className="mp-transfer">
      <Button size="sm" icon="download" disabled={busy !== null} onClick={() => void onExport()}>
        Export memory
      </Button>
      <label
        className="mp-transfer__option"
        title="Adds every file's change history (the journal) to the zip"
      >
        <input
          type="checkbox"
          checked={withHistory}
          disabled={busy !== null}
          onChange={(e) => setWithHistory(e.target.checked)}
        />{' '}
        Include history
      </label>
      <Button size="sm" icon="folder" disabled={busy !== null} onClick={() => void onImport()}>
        Import memory
      </Button>
      <input
        ref={fileInput}
        type="file"
        accept=".zip,application/zip"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
      {busy && busy !== 'apply' && <Spinner label={label[busy]} />}
      {skipped.length > 0 && (
        <Dialog
          open
          title="Not in the export"
          size="lg"
          onClose={() => setSkipped([])}
          description={`The export holds everything else; ${skipped.length} ${skipped.length === 1 ? 'item was' : 'items were'} left out, for the reasons below.`}
          footer={<Button onClick={() => setSkipped([])}>OK</Button>}
        >
          <PathList title="Left out" paths={skipped} />
        </Dialog>
      )}
      {preview && (
        <ImportPreview
          preview={preview}
          overwrite={overwrite}
          onOverwrite={setOverwrite}
          busy={busy === 'apply'}
          onCancel={() => setPreview(null)}
          onApply={() => void onApply()}
        />
      )}
    </div>
  );
}

function PathList({ title, paths }: { title: string; paths: { path: string; reason?: string }[] }) {
  if (paths.length === 0) return null;
  return (
    <section className="mp-import__group" aria-label={title}>
      <h3 className="mp-section-title">
        {title} ({paths.length})
      </h3>
      <ul className="mp-import__list">
        {paths.map((p) => (
          <li key={p.path}>
            <code>{p.path}</code>
            {p.reason && <span className="mp-row__meta"> — {p.reason}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

function ImportPreview(props: {
  preview: Preview;
  overwrite: boolean;
  onOverwrite: (v: boolean) => void;
  busy: boolean;
  onCancel: () => void;
  onApply: () => void;
}): ReactElement {
  const { preview } = props;
  const writes =
    preview.added.length + preview.changed.length + (props.overwrite ? preview.conflicts.length : 0);
  // The words are the confirmations table's: the import is a destructive action like the others.
  const ask = TABLE['memory.importApply'].dialog({
    added: preview.added.length,
    changed: preview.changed.length,
    unchanged: preview.unchanged.length,
    conflicts: preview.conflicts.length,
    refused: preview.refused.length,
    overwrite: props.overwrite,
  });
  return (
    <Dialog
      open
      title={ask.title}
      size="lg"
      onClose={props.onCancel}
      description={ask.body.map((part) => (typeof part === 'string' ? part : part.code)).join('')}
      footer={
        <>
          <Button onClick={props.onCancel}>{ask.cancelLabel ?? 'Cancel'}</Button>
          <Button variant="primary" disabled={props.busy || writes === 0} onClick={props.onApply}>
            {props.busy ? 'Importing…' : ask.confirmLabel}
          </Button>
        </>
      }
    >
      <PathList title="New files" paths={preview.added.map((path) => ({ path }))} />
      <PathList title="Changed files" paths={preview.changed.map((path) => ({ path }))} />
      <PathList title="Conflicts" paths={preview.conflicts} />
      <PathList title="Refused" paths={preview.refused} />
      {preview.conflicts.length > 0 && (
        <label className="mp-checkbox">
          <input
            type="checkbox"
            checked={props.overwrite}
            onChange={(e) => props.onOverwrite(e.target.checked)}
          />
          Overwrite the conflicting files with the imported versions (the current ones stay in their history)
        </label>
      )}
      {writes === 0 && <p className="mp-empty">Nothing to import: every file is already in memory.</p>}
    </Dialog>
  );
}

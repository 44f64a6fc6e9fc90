// "Copy to space…" and "Move to space…" for one memory file: pick the space, confirm a move, then a toast
// says what happened (the file's history records it on both sides; the backend journals it).
import { useState, type ReactElement, type ReactNode } from 'react';
import { Button } from '../../components';
import { transferMemoryFile } from './use-spaces';
import { SpacePickerDialog } from './space-picker-dialog';

export function MemoryFileTransfer({ path }: { path: string }): ReactElement {
  const [mode, setMode] = useState<'copy' | 'move' | null>(null);
  let dialog: ReactNode = null;
  if (mode) {
    dialog = (
      <SpacePickerDialog
        title={mode === 'copy' ? 'Copy to space' : 'Move to space'}
        mode={mode}
        what={<code>{path}</code>}
        moveNote="Its history stays in both spaces’ journals."
        onPick={(target) => transferMemoryFile(mode, path, target)}
        onClose={() => setMode(null)}
      />
    );
  }
  return (
    <>
      <Button size="sm" onClick={() => setMode('copy')}>
        Copy to space…
      </Button>
      <Button size="sm" onClick={() => setMode('move')}>
        Move to space…
      </Button>
      {dialog}
    </>
  );
}

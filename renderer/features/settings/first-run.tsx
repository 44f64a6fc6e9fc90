// Shown while no API key is set: what Mnemo is, and the one thing it needs to start.
import type { ReactElement } from 'react';
import { Toaster } from '../../components';
import { useSettings } from '../../store/settings';
import { ApiKeyForm } from './api-key-form';
import { InsecureStorageNote } from './insecure-storage-note';
import './settings.css';

export function FirstRun(): ReactElement {
  const insecure = useSettings((s) => s.view?.apiKey.insecureStorage ?? false);
  // A stored key this face cannot read (e.g. encrypted by the desktop app's keychain): say so, not "welcome".
  const problem = useSettings((s) => s.view?.apiKey.problem);
  return (
    <main className="first-run" aria-labelledby="first-run-title">
      <div className="first-run-card">
        <span className="brand-mark first-run-mark" aria-hidden="true">
          M
        </span>
        <h1 id="first-run-title" className="first-run-title">
          Welcome to Mnemo
        </h1>
        <p className="first-run-lead">
          A chat with Claude that keeps a memory you can see: plain Markdown files you can read, edit, undo
          and export. To start, add your Anthropic API key.
        </p>
        {problem && (
          <p className="settings-warning" role="status">
            {problem}
          </p>
        )}
        <ApiKeyForm submitLabel="Save and start" autoFocus />
        {insecure && <InsecureStorageNote />}
      </div>
      <Toaster />
    </main>
  );
}

// Settings → Sync, for the window's current space: the remote's HTTPS address, the token (a password
// field; once saved it shows only "saved", never the token), this device's name, Join / Save, Sync now
// and Disconnect (confirmed; the address and name stay in the form, so reconnecting takes the token
// again and nothing else). A remote holding another space is merged only after the person agrees.
import { useEffect, useId, useState, type ReactElement } from 'react';
import { TABLE } from '../../../shared/confirmations.js';
import { Button, ConfirmBody, ConfirmDialog, Icon } from '../../components';
import { useCurrentSpace } from '../spaces/use-spaces';
import { useSync, useSyncView } from '../../store/sync';
import type { SyncView } from '../../../shared/channels/sync';
import { statusLine, type StatusLine } from './format';
import { RewrittenChoice } from './rewritten-choice';
import { CheckInterval } from './check-interval';
import './sync.css';

interface OtherSpace {
  name: string;
  memoryFiles: number;
  conversations: number;
}

export function SyncSettings(): ReactElement {
  const space = useCurrentSpace();
  const view = useSyncView(space.id);
  const last = useSync((s) => s.lastRemote[space.id]);
  const load = useSync((s) => s.load);
  useEffect(() => void load(), [load, space.id]);
  const remote = view?.remote ?? null;
  const shown = remote ?? last;
  // A new key when the space or its saved remote changes: the form starts from what is saved.
  const key = `${space.id} ${shown?.url ?? ''} ${shown?.username ?? ''} ${shown?.device ?? ''}`;
  return (
    <section className="settings-section" aria-labelledby="settings-sync">
      <h3 id="settings-sync">Sync ({space.name})</h3>
      <p className="field-hint">
        Keeps this space’s memory and conversations the same on your other devices, through a git remote you
        own (GitHub, GitLab, Gitea or any HTTPS git server). Memory and conversations on the remote are as
        readable as the remote is: anyone who can read that repository can read them.
      </p>
      <SyncForm
        key={key}
        spaceId={space.id}
        spaceName={space.name}
        remote={remote}
        checkSeconds={view?.checkSeconds ?? 60}
        initial={shown ? { url: withUser(shown.url, shown.username), device: shown.device } : undefined}
        status={statusLine(view)}
      />
    </section>
  );
}

function SyncForm({
  spaceId,
  spaceName,
  remote,
  checkSeconds,
  initial,
  status,
}: {
  spaceId: string;
  spaceName: string;
  remote: SyncView['remote'];
  checkSeconds: number;
  initial: { url: string; device: string } | undefined;
  status: StatusLine | null;
}): ReactElement {
  const configure = useSync((s) => s.configure);
  const disconnect = useSync((s) => s.disconnect);
  const syncNow = useSync((s) => s.syncNow);
  const retrying = useSync((s) => s.retrying);
  const id = useId();
  const [url, setUrl] = useState(initial?.url ?? '');
  const [token, setToken] = useState('');
  const [device, setDevice] = useState(initial?.device ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [other, setOther] = useState<OtherSpace | null>(null);
  const [confirmDisconnect, setConfirmDisconnect] = useState(false);
  const disconnectAsk = TABLE['sync.disconnect'].dialog({ spaceName });

  const submit = async (confirmOtherSpace = false): Promise<void> => {
    const address = url.trim();
    if (!address)
      return setError('Enter the remote’s HTTPS address, e.g. https://you@git.example.com/notes.git.');
    if (!token.trim() && !remote?.hasToken)
      return setError('Enter the token (an access token or app password for that remote).');
    setBusy(true);
    setError(null);
    const res = await configure({
      url: address,
      ...(token.trim() ? { token: token.trim() } : {}),
      deviceName: device.trim(),
      ...(confirmOtherSpace ? { confirmOtherSpace: true } : {}),
    });
    setBusy(false);
    if ('error' in res) return setError(res.error);
    if (!res.joined) {
      setOther({ name: res.otherSpace.name, memoryFiles: res.memoryFiles, conversations: res.conversations });
      return;
    }
    setToken('');
  };

  return (
    <>
      {remote && status && (
        <p className="settings-status">
          <Icon name={status.tone === 'error' ? 'alert' : 'check'} size={14} /> Connected as {remote.device}.{' '}
          {status.text}
        </p>
      )}
      {remote && status?.rewritten && <RewrittenChoice spaceId={spaceId} spaceName={spaceName} />}
      <form
        className="sync-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-url`}>Remote address</label>
          <input
            id={`${id}-url`}
            className="input"
            type="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://you@git.example.com/notes.git"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <p className="field-hint">HTTPS, with your user name before the host.</p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-token`}>Token</label>
          <input
            id={`${id}-token`}
            className="input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={remote?.hasToken ? 'saved' : ''}
            value={token}
            onChange={(e) => setToken(e.target.value)}
          />
          <p className="field-hint">
            {remote?.hasToken
              ? 'A token is saved on this device. Leave this empty to keep it.'
              : 'Kept on this device like the API key, never shown again.'}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-device`}>This device’s name</label>
          <input
            id={`${id}-device`}
            className="input"
            autoComplete="off"
            placeholder="the computer’s name"
            value={device}
            onChange={(e) => setDevice(e.target.value)}
          />
          <p className="field-hint">Shown on the other devices beside what this one changed.</p>
        </div>
        {remote && <CheckInterval seconds={checkSeconds} />}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="sync-conflict-actions">
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? 'Joining…' : remote ? 'Save' : 'Join'}
          </Button>
          {remote && (
            <>
              <Button disabled={retrying} onClick={() => void syncNow()}>
                Sync now
              </Button>
              <Button variant="ghost" onClick={() => setConfirmDisconnect(true)}>
                Disconnect
              </Button>
            </>
          )}
        </div>
      </form>

      <ConfirmDialog
        open={other !== null}
        title={`Merge “${other?.name ?? ''}” into ${spaceName}?`}
        confirmLabel="Merge"
        onCancel={() => setOther(null)}
        onConfirm={() => {
          setOther(null);
          void submit(true);
        }}
      >
        <p>
          That remote holds another space, “{other?.name}”. Joining it merges its memory and conversations
          with this space’s {other?.memoryFiles ?? 0} memory files and {other?.conversations ?? 0}{' '}
          conversations. Nothing is deleted.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirmDisconnect}
        title={disconnectAsk.title}
        confirmLabel={disconnectAsk.confirmLabel}
        danger
        onCancel={() => setConfirmDisconnect(false)}
        onConfirm={() => {
          setConfirmDisconnect(false);
          void disconnect();
        }}
      >
        <ConfirmBody ask={disconnectAsk} />
      </ConfirmDialog>
    </>
  );
}

/** The address as typed, with its user name (the saved one keeps the name apart). */
function withUser(url: string, username: string): string {
  try {
    const u = new URL(url);
    u.username = username;
    return u.toString();
  } catch {
    return url;
  }
}

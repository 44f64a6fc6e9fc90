// The words of the sync status (pure: the status line and its tests use them).
import type { SyncView } from '../../../shared/channels/sync';

/** "just now", "2 min ago", "3 h ago", else the day and time. */
export function agoText(at: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return 'just now';
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ago`;
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

const waitingText = (n: number): string => (n === 1 ? '1 change waiting' : `${n} changes waiting`);

export type StatusLine = {
  text: string;
  tone: 'ok' | 'busy' | 'waiting' | 'error';
  retry: boolean;
  /** The remote's history was rewritten elsewhere: not a Retry, a choice (push mine / take theirs). */
  rewritten?: boolean;
};

/** What the sidebar says; null when the space has no remote (nothing is shown). */
export function statusLine(view: SyncView | undefined, now = Date.now()): StatusLine | null {
  if (!view?.remote) return null;
  const s = view.status;
  switch (s.state) {
    case 'syncing':
      return { text: 'Syncing…', tone: 'busy', retry: false };
    case 'synced':
      return s.waiting > 0
        ? { text: waitingText(s.waiting), tone: 'waiting', retry: false }
        : { text: `Synced ${agoText(s.lastSyncAt, now)}`, tone: 'ok', retry: false };
    case 'error':
      return s.kind === 'rewritten'
        ? { text: `Sync stopped: ${s.message}`, tone: 'error', retry: false, rewritten: true }
        : { text: `Sync failed: ${s.message}`, tone: 'error', retry: true };
    case 'off':
      return { text: 'Not synced yet', tone: 'waiting', retry: true };
  }
}

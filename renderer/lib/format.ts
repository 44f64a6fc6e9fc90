// Small formatting helpers shared by the chat cards and the side panels.

// Token counts and plurals read the same in every face: defined once, with the labels they make.
import { trimZero } from '../../shared/projection/format';

export { formatTokens, plural } from '../../shared/projection/format';

/** 512 → "512 B", 2048 → "2 KB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${trimZero((n / 1024).toFixed(1))} KB`;
  return `${trimZero((n / 1024 / 1024).toFixed(1))} MB`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${trimZero((ms / 1000).toFixed(1))} s`;
}

// toLocale*String with options builds a new Intl formatter (loading locale data) on every call: the first
// one cost ~10 ms, inside the long task that shows a new conversation. Two formatters, made once, instead.
let timeFormat: Intl.DateTimeFormat | null = null;
let dateFormat: Intl.DateTimeFormat | null = null;

/** A time of day for today, else a short date. */
export function formatTime(iso: string, now = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const sameDay = d.toDateString() === now.toDateString();
  if (sameDay) {
    timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
    return timeFormat.format(d);
  }
  dateFormat ??= new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
  return dateFormat.format(d);
}

/** The message of anything thrown across the contract, without stack or host path. */
export function errorMessage(err: unknown): string {
  if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string' && err.message) {
    return err.message;
  }
  return 'Something went wrong.';
}

// Settings → Sync's "Check the remote every": how often this device asks the remote for the other
// devices' changes while the app runs (issue 16, point 3; default 1 minute). Kept with the space's remote
// on this device; a change applies at once. Changes made here still go a few seconds after they happen,
// whatever this says.
import { useId, type ReactElement } from 'react';
import { useSync } from '../../store/sync';

const CHOICES: { seconds: number; label: string }[] = [
  { seconds: 10, label: '10 seconds' },
  { seconds: 30, label: '30 seconds' },
  { seconds: 60, label: '1 minute' },
  { seconds: 300, label: '5 minutes' },
  { seconds: 900, label: '15 minutes' },
  { seconds: 3600, label: '1 hour' },
];

export function CheckInterval({ seconds }: { seconds: number }): ReactElement {
  const id = useId();
  const set = useSync((s) => s.setCheckInterval);
  const choices = CHOICES.some((c) => c.seconds === seconds)
    ? CHOICES
    : [...CHOICES, { seconds, label: `${seconds} seconds` }].sort((a, b) => a.seconds - b.seconds);
  return (
    <div className="field">
      <label htmlFor={id}>Check the remote every</label>
      <select id={id} className="input" value={seconds} onChange={(e) => void set(Number(e.target.value))}>
        {choices.map((c) => (
          <option key={c.seconds} value={c.seconds}>
            {c.label}
          </option>
        ))}
      </select>
      <p className="field-hint">
        While the app runs, for what your other devices changed. What you change here is sent within seconds
        either way.
      </p>
    </div>
  );
}

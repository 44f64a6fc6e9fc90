import type { ReactElement } from 'react';
import './components.css';

/** A small spinner; pass `label` when it is the only sign of progress (it becomes a status). */
export function Spinner({ label, size = 16 }: { label?: string; size?: number }): ReactElement {
  return (
    <span className="spinner-wrap" role={label ? 'status' : undefined}>
      <span className="spinner" style={{ width: size, height: size }} aria-hidden="true" />
      {label && <span className="visually-hidden">{label}</span>}
    </span>
  );
}

// A resize handle between two panes: drag with the pointer, or focus it and use the arrow keys
// (role="separator" with aria-valuenow, per WAI-ARIA's window splitter pattern). Double-click resets.
import { useRef, type ReactElement } from 'react';
import './components.css';

export interface SplitterProps {
  /** Accessible name, e.g. "Resize conversations". */
  label: string;
  value: number;
  min: number;
  max: number;
  /** +1 when dragging right grows the pane (a left pane), -1 when it shrinks it (a right pane). */
  direction: 1 | -1;
  onChange: (value: number) => void;
  onReset?: () => void;
}

export function Splitter({
  label,
  value,
  min,
  max,
  direction,
  onChange,
  onReset,
}: SplitterProps): ReactElement {
  const drag = useRef<{ x: number; start: number } | null>(null);
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(value)}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      className="splitter"
      onPointerDown={(e) => {
        drag.current = { x: e.clientX, start: value };
        e.currentTarget.setPointerCapture?.(e.pointerId);
        document.body.classList.add('is-resizing');
      }}
      onPointerMove={(e) => {
        if (!drag.current) return;
        onChange(drag.current.start + direction * (e.clientX - drag.current.x));
      }}
      onPointerUp={(e) => {
        drag.current = null;
        e.currentTarget.releasePointerCapture?.(e.pointerId);
        document.body.classList.remove('is-resizing');
      }}
      onDoubleClick={onReset}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 48 : 16;
        if (e.key === 'ArrowLeft') onChange(value - direction * step);
        else if (e.key === 'ArrowRight') onChange(value + direction * step);
        else if (e.key === 'Home') onChange(min);
        else if (e.key === 'End') onChange(max);
        else return;
        e.preventDefault();
      }}
    />
  );
}

// The small palette a space's colour is picked from: a radio group of swatches (arrow keys move and pick,
// as in any radio group; one tab stop). Each swatch is named by its colour's word, never by a hex code.
import { useRef, type ReactElement } from 'react';
import { SPACE_COLOURS } from './palette';

export function ColourPalette({
  value,
  onChange,
  label = 'Colour',
  checkedRef,
}: {
  value: string;
  onChange: (colour: string) => void;
  label?: string;
  /** Set to the checked swatch (a dialog can focus it first). */
  checkedRef?: React.RefObject<HTMLButtonElement | null>;
}): ReactElement {
  const ref = useRef<HTMLDivElement>(null);
  const at = Math.max(
    0,
    SPACE_COLOURS.findIndex((c) => c.hex === value.toLowerCase()),
  );
  const onKeyDown = (e: React.KeyboardEvent): void => {
    const step =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? 1
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? -1
          : 0;
    if (!step) return;
    e.preventDefault();
    const next = (at + step + SPACE_COLOURS.length) % SPACE_COLOURS.length;
    onChange(SPACE_COLOURS[next]!.hex);
    ref.current?.querySelectorAll<HTMLElement>('[role="radio"]')[next]?.focus();
  };
  return (
    <div ref={ref} className="sp-palette" role="radiogroup" aria-label={label} onKeyDown={onKeyDown}>
      {SPACE_COLOURS.map((c, i) => {
        const checked = i === at;
        return (
          <button
            key={c.hex}
            ref={checked ? checkedRef : undefined}
            type="button"
            role="radio"
            aria-checked={checked}
            aria-label={c.name}
            title={c.name}
            tabIndex={checked ? 0 : -1}
            className="sp-swatch"
            style={{ background: c.hex }}
            onClick={() => onChange(c.hex)}
          />
        );
      })}
    </div>
  );
}

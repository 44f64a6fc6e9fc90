// The field of a confirmation that destroys something named: the user types the name before the button
// enables (deleting a space, forgetting permanently, clearing everything). One field, so every such
// dialog reads and behaves the same.
import { useId, type ReactElement, type RefObject } from 'react';

export interface TypedNameFieldProps {
  /** What must be typed, shown in the label. */
  name: string;
  value: string;
  onChange: (value: string) => void;
  inputRef?: RefObject<HTMLInputElement | null>;
  className?: string;
}

export function TypedNameField({
  name,
  value,
  onChange,
  inputRef,
  className,
}: TypedNameFieldProps): ReactElement {
  const id = useId();
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>
        Type <code>{name}</code> to confirm
      </label>
      <input
        id={id}
        ref={inputRef}
        className="input"
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

/** Whether what was typed names it (surrounding spaces do not count). */
export const typedMatches = (typed: string, name: string): boolean => typed.trim() === name;

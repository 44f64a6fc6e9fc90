// Settings fields that save themselves: choices apply at once, numbers on blur or Enter once they are in
// range (the range comes from the settings schema, so the form and the backend agree).
import { useId, useState, type ReactElement, type ReactNode } from 'react';
import type { z } from 'zod';
import { settingsSchema, type Settings } from '../../../shared/channels/settings';
import { useSettings } from '../../store/settings';

type NumberKey = {
  [K in keyof Settings]: Settings[K] extends number ? K : never;
}[keyof Settings];

export function rangeOf(key: NumberKey): { min: number; max: number } {
  const schema = settingsSchema.shape[key] as unknown as z.ZodNumber;
  return { min: schema.minValue ?? 0, max: schema.maxValue ?? Number.MAX_SAFE_INTEGER };
}

export function NumberSetting({
  name,
  label,
  hint,
  unit,
}: {
  name: NumberKey;
  label: string;
  hint?: ReactNode;
  unit?: string;
}): ReactElement {
  const value = useSettings((s) => s.view?.settings[name]);
  const update = useSettings((s) => s.update);
  // null while not being edited: the field then shows the saved value (and follows outside changes).
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const { min, max } = rangeOf(name);
  const commit = (): void => {
    if (draft === null) return;
    const n = Number(draft.replace(/[_,\s]/g, ''));
    if (!Number.isInteger(n) || n < min || n > max) {
      setError(`Enter a whole number from ${min.toLocaleString()} to ${max.toLocaleString()}.`);
      return;
    }
    setError(null);
    setDraft(null);
    if (n !== value) void update({ [name]: n } as Partial<Settings>);
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="number-row">
        <input
          id={id}
          className="input number-input"
          inputMode="numeric"
          value={draft ?? String(value ?? '')}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
        />
        {unit && <span className="number-unit">{unit}</span>}
      </div>
      <p id={`${id}-hint`} className={error ? 'field-error' : 'field-hint'}>
        {error ?? hint}
      </p>
    </div>
  );
}

export function ChoiceSetting<K extends 'theme' | 'memoryWriteMode' | 'contextStrategy'>({
  name,
  label,
  options,
}: {
  name: K;
  label: string;
  options: { value: Settings[K]; label: string; hint?: string }[];
}): ReactElement {
  const value = useSettings((s) => s.view?.settings[name]);
  const update = useSettings((s) => s.update);
  const id = useId();
  return (
    <fieldset className="choice">
      <legend className="field-label">{label}</legend>
      <div className="choice-options">
        {options.map((o) => (
          <label key={o.value} className={`choice-option${o.value === value ? ' is-checked' : ''}`}>
            <input
              type="radio"
              name={id}
              value={o.value}
              checked={o.value === value}
              onChange={() => void update({ [name]: o.value } as Partial<Settings>)}
            />
            <span>
              <span className="choice-label">{o.label}</span>
              {o.hint && <span className="choice-hint">{o.hint}</span>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function TextSetting({
  name,
  label,
  hint,
}: {
  name: 'model';
  label: string;
  hint?: ReactNode;
}): ReactElement {
  const value = useSettings((s) => s.view?.settings[name]);
  const update = useSettings((s) => s.update);
  const [draft, setDraft] = useState<string | null>(null);
  const id = useId();
  const commit = (): void => {
    if (draft === null) return;
    const v = draft.trim();
    setDraft(null);
    if (v && v !== value) void update({ [name]: v });
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        value={draft ?? value ?? ''}
        spellCheck={false}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          }
        }}
      />
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
    </div>
  );
}

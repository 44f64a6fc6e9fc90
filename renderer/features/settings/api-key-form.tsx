// Entering the API key: it travels renderer → main once and is never shown again (only whether one is
// set and where it comes from).
import { useState, type ReactElement } from 'react';
import { Button } from '../../components';
import { useSettings } from '../../store/settings';

export function ApiKeyForm({
  submitLabel,
  autoFocus,
}: {
  submitLabel: string;
  autoFocus?: boolean;
}): ReactElement {
  const setApiKey = useSettings((s) => s.setApiKey);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="api-key-form"
      onSubmit={(e) => {
        e.preventDefault();
        const value = key.trim();
        if (!value) {
          setError('Paste your Anthropic API key first.');
          return;
        }
        setBusy(true);
        setError(null);
        void setApiKey(value).then((ok) => {
          setBusy(false);
          if (ok) setKey('');
        });
      }}
    >
      <div className="field">
        <label htmlFor="api-key-input">API key</label>
        <div className="api-key-row">
          <input
            id="api-key-input"
            className="input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="sk-ant-…"
            value={key}
            autoFocus={autoFocus}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'api-key-error' : 'api-key-hint'}
            onChange={(e) => setKey(e.target.value)}
          />
          <Button type="submit" variant="primary" disabled={busy}>
            {submitLabel}
          </Button>
        </div>
        {error ? (
          <p id="api-key-error" className="field-error" role="alert">
            {error}
          </p>
        ) : (
          <p id="api-key-hint" className="field-hint">
            Create one at console.anthropic.com. It is kept by the app, never shown again, and never sent to
            the model. The ANTHROPIC_API_KEY environment variable, when set, takes precedence.
          </p>
        )}
      </div>
    </form>
  );
}

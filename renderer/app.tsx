// The root: waits for settings, then shows the first-run screen (no API key yet) or the app.
import type { ReactElement } from 'react';
import { EmptyState, Spinner } from './components';
import { AppLayout } from './features/layout/app-layout';
import { FirstRun } from './features/settings/first-run';
import { useSettings } from './store/settings';
import { useThemeSetting } from './theme';

export function App(): ReactElement {
  useThemeSetting();
  const view = useSettings((s) => s.view);
  const loadError = useSettings((s) => s.loadError);
  if (!view) {
    return (
      <div className="boot">
        {loadError ? (
          <EmptyState icon="alert" title="Mnemo could not start">
            {loadError}
          </EmptyState>
        ) : (
          <Spinner label="Starting Mnemo" size={24} />
        )}
      </div>
    );
  }
  if (!view.apiKey.hasApiKey) return <FirstRun />;
  return <AppLayout />;
}

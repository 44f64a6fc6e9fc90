import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getApi } from './api';
import { App } from './app';
import { boot } from './boot';
import { warmUpMarkdown } from './components/markdown';
import { warmUpChat } from './features/chat/warm-up';
import { errorMessage } from './lib/format';
import { useSettings } from './store/settings';
import { applyInitialTheme } from './theme';
import './styles/tokens.css';
import './styles/base.css';

applyInitialTheme();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

warmUpChat();
warmUpMarkdown();

try {
  void boot(getApi());
} catch (err) {
  // E.g. the page was opened without its access token.
  useSettings.setState({ loadError: errorMessage(err) });
}

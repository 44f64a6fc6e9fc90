// The window: conversations | chat | side panel, with resizable panes (sizes persist in localStorage).
import type { ReactElement } from 'react';
import { Splitter, Toaster } from '../../components';
import { defaultSizes, sizeLimits, useUi } from '../../store/ui';
import { ChatView } from '../chat/chat-view';
import { ConversationSidebar } from '../conversations/sidebar';
import { SettingsDialog } from '../settings/settings-dialog';
import { ConnectionBanner } from './connection-banner';
import { HelpDialog } from './help-dialog';
import { useShortcuts } from './shortcuts';
import { SidePanel } from './side-panel';
import './layout.css';

export function AppLayout(): ReactElement {
  useShortcuts();
  const sizes = useUi((s) => s.sizes);
  const setSize = useUi((s) => s.setSize);
  const panelOpen = useUi((s) => s.panelOpen);
  const sidebarOpen = useUi((s) => s.sidebarOpen);
  return (
    <div className="app">
      <ConnectionBanner />
      <div className="app-panes">
        {sidebarOpen && (
          <>
            <div className="pane pane-sidebar" style={{ width: sizes.sidebar }}>
              <ConversationSidebar />
            </div>
            <Splitter
              label="Resize conversations"
              value={sizes.sidebar}
              min={sizeLimits.sidebar[0]}
              max={sizeLimits.sidebar[1]}
              direction={1}
              onChange={(v) => setSize('sidebar', v)}
              onReset={() => setSize('sidebar', defaultSizes.sidebar)}
            />
          </>
        )}
        <div className="pane pane-chat">
          <ChatView />
        </div>
        {panelOpen && (
          <>
            <Splitter
              label="Resize side panel"
              value={sizes.panel}
              min={sizeLimits.panel[0]}
              max={sizeLimits.panel[1]}
              direction={-1}
              onChange={(v) => setSize('panel', v)}
              onReset={() => setSize('panel', defaultSizes.panel)}
            />
            <div className="pane pane-panel" style={{ width: sizes.panel }}>
              <SidePanel />
            </div>
          </>
        )}
      </div>
      <SettingsDialog />
      <HelpDialog />
      <Toaster />
    </div>
  );
}

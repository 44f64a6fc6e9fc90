// The right pane: Memory, Activity and Context tabs. Each tab's content is its feature's own component;
// the tab panel is labelled by its tab, and the component inside names its region ("Memory", ...).
import type { ReactElement } from 'react';
import { IconButton, Tabs } from '../../components';
import { useUi, type PanelTab } from '../../store/ui';
import { ContextPanel } from '../context';
import { MemoryPanel } from '../memory';
import { ActivityPanel } from '../tool-log';

export function SidePanel(): ReactElement {
  const tab = useUi((s) => s.panelTab);
  const setTab = useUi((s) => s.setPanelTab);
  const togglePanel = useUi((s) => s.togglePanel);
  return (
    <aside className="side-panel" aria-label="Side panel">
      <Tabs<PanelTab>
        label="Side panel"
        active={tab}
        onChange={setTab}
        items={[
          { key: 'memory', label: 'Memory', content: <MemoryPanel /> },
          { key: 'activity', label: 'Activity', content: <ActivityPanel /> },
          { key: 'context', label: 'Context', content: <ContextPanel /> },
        ]}
      />
      <IconButton
        className="side-panel-close"
        label="Hide side panel"
        icon="close"
        size="sm"
        onClick={() => togglePanel(false)}
      />
    </aside>
  );
}

// Settings: the API key (status only), model, appearance, memory (write mode, limits), context (strategy
// and thresholds) and the data folder. Every change saves itself; the backend validates it again.
import { useEffect, useState, type ReactElement } from 'react';
import { formatBytes } from '../../lib/format';
import { TABLE } from '../../../shared/confirmations.js';
import { Button, ConfirmBody, ConfirmDialog, Dialog, Icon } from '../../components';
import { useSettings } from '../../store/settings';
import { useUi } from '../../store/ui';
import { InsecureStorageNote } from './insecure-storage-note';
import { ApiKeyForm } from './api-key-form';
import { ChoiceSetting, NumberSetting, TextSetting } from './fields';
import { SyncSettings } from '../sync';
import { PERSONAL_ID, useCurrentSpace } from '../spaces/use-spaces';
import './settings.css';

export function SettingsDialog(): ReactElement {
  const open = useUi((s) => s.settingsOpen);
  const setOpen = useUi((s) => s.openSettings);
  return (
    <Dialog
      open={open}
      title="Settings"
      size="lg"
      onClose={() => setOpen(false)}
      footer={
        <Button variant="primary" onClick={() => setOpen(false)}>
          Done
        </Button>
      }
    >
      <SettingsBody />
    </Dialog>
  );
}

function SettingsBody(): ReactElement {
  const view = useSettings((s) => s.view);
  const info = useSettings((s) => s.info);
  const setApiKey = useSettings((s) => s.setApiKey);
  const reset = useSettings((s) => s.reset);
  const openDataFolder = useSettings((s) => s.openDataFolder);
  const [confirmReset, setConfirmReset] = useState(false);
  const resetAsk = TABLE['settings.reset'].dialog({});
  if (!view) return <p>Loading…</p>;
  const { apiKey, settings } = view;
  const keyStatus = !apiKey.hasApiKey
    ? 'No key is set.'
    : apiKey.source === 'env'
      ? 'A key is set (from the environment: ANTHROPIC_API_KEY).'
      : 'A key is set (stored by the app).';

  return (
    <div className="settings">
      <section className="settings-section" aria-labelledby="settings-key">
        <h3 id="settings-key">Anthropic API key</h3>
        <p className="settings-status">
          <Icon name={apiKey.hasApiKey ? 'check' : 'alert'} size={14} /> {keyStatus}
        </p>
        {apiKey.insecureStorage && <InsecureStorageNote />}
        <ApiKeyForm submitLabel={apiKey.source === 'stored' ? 'Replace key' : 'Save key'} />
        {apiKey.source === 'stored' && (
          <Button size="sm" variant="ghost" icon="trash" onClick={() => void setApiKey(null)}>
            Remove the stored key
          </Button>
        )}
      </section>

      <section className="settings-section" aria-labelledby="settings-model">
        <h3 id="settings-model">Model and appearance</h3>
        <TextSetting
          name="model"
          label="Model"
          hint="The Claude model used for new answers, e.g. claude-sonnet-5-5."
        />
        <ChoiceSetting
          name="theme"
          label="Theme"
          options={[
            { value: 'system', label: 'System' },
            { value: 'light', label: 'Light' },
            { value: 'dark', label: 'Dark' },
          ]}
        />
      </section>

      <section className="settings-section" aria-labelledby="settings-memory">
        <h3 id="settings-memory">Memory</h3>
        <PerSpaceNote />
        <ChoiceSetting
          name="memoryWriteMode"
          label="Memory writes"
          options={[
            {
              value: 'automatic',
              label: 'Automatic',
              hint: 'Mnemo saves what it learns; every change can be undone.',
            },
            {
              value: 'ask',
              label: 'Ask me',
              hint: 'Each write waits for you to approve, edit or reject it.',
            },
            { value: 'read-only', label: 'Read-only', hint: 'Mnemo reads its memory but never changes it.' },
          ]}
        />
        <div className="settings-grid">
          <NumberSetting
            name="backfillBudgetTokens"
            label="Memory loaded at the start"
            unit="tokens"
            hint="How much memory is read into a new conversation before the first answer."
          />
          <NumberSetting
            name="memoryFileCapBytes"
            label="Largest memory file"
            unit="bytes"
            hint={`Now ${formatBytes(settings.memoryFileCapBytes)}.`}
          />
          <NumberSetting
            name="memoryQuotaBytes"
            label="Memory folder limit"
            unit="bytes"
            hint={`Now ${formatBytes(settings.memoryQuotaBytes)}.`}
          />
          <NumberSetting name="staleAfterDays" label="Flag files unused for" unit="days" />
        </div>
        <RecallSetting />
      </section>

      <section className="settings-section" aria-labelledby="settings-context">
        <h3 id="settings-context">Context</h3>
        <ChoiceSetting
          name="contextStrategy"
          label="Context management"
          options={[
            { value: 'native', label: 'API', hint: 'Clearing and compaction done by the API.' },
            {
              value: 'local',
              label: 'In the app',
              hint: 'The app clears and summarises old context itself.',
            },
            { value: 'off', label: 'Off', hint: 'Keep everything until the window is full.' },
          ]}
        />
        <div className="settings-grid">
          <NumberSetting name="clearTrigger" label="Clear old tool results above" unit="tokens" />
          <NumberSetting name="clearKeep" label="Tool results kept when clearing" />
          <NumberSetting name="clearAtLeast" label="Clear at least" unit="tokens" />
          <KeepSearchResults />
          <NumberSetting
            name="compactTrigger"
            label="Compact above"
            unit="tokens"
            hint="The API's own compaction needs at least 50,000."
          />
          <NumberSetting name="maxTurns" label="Tool turns per answer" />
          <NumberSetting name="stallTimeoutMs" label="Give up on a silent stream after" unit="ms" />
        </div>
      </section>

      <SyncSettings />

      <section className="settings-section" aria-labelledby="settings-data">
        <h3 id="settings-data">Data folder</h3>
        <p className="field-hint">Conversations, memory, settings and logs live here.</p>
        <div className="data-dir-row">
          <code className="data-dir">{info?.dataDir ?? '…'}</code>
          <Button size="sm" icon="folder" onClick={() => void openDataFolder()}>
            Open
          </Button>
        </div>
      </section>

      <section className="settings-section">
        <Button size="sm" variant="ghost" onClick={() => setConfirmReset(true)}>
          Reset all settings to defaults
        </Button>
      </section>

      <ConfirmDialog
        open={confirmReset}
        title={resetAsk.title}
        confirmLabel={resetAsk.confirmLabel}
        danger
        onCancel={() => setConfirmReset(false)}
        onConfirm={() => {
          setConfirmReset(false);
          void reset();
        }}
      >
        <ConfirmBody ask={resetAsk} />
      </ConfirmDialog>
    </div>
  );
}

/** The space's recall switch (conversation_search and recent_conversations for the model). */
function RecallSetting(): ReactElement {
  const on = useSettings((s) => s.recall);
  const load = useSettings((s) => s.loadRecall);
  const setRecall = useSettings((s) => s.setRecall);
  useEffect(() => void load(), [load]);
  return (
    <label className="field checkbox-field">
      <input
        type="checkbox"
        checked={on ?? true}
        disabled={on === null}
        onChange={(e) => void setRecall(e.target.checked)}
      />
      Let Claude search past conversations in this space
    </label>
  );
}

/** Native clearing keeps memory reads always; this adds memory_search results (exclude_tools). */
function KeepSearchResults(): ReactElement {
  const kept = useSettings((s) => s.view?.settings.clearExcludeTools.includes('memory_search') ?? false);
  const update = useSettings((s) => s.update);
  return (
    <label className="field checkbox-field">
      <input
        type="checkbox"
        checked={kept}
        onChange={(e) => void update({ clearExcludeTools: e.target.checked ? ['memory_search'] : [] })}
      />
      Never clear memory search results
    </label>
  );
}

/** Which spaces the write mode and the memory loaded at the start apply to (they are per space). */
function PerSpaceNote(): ReactElement {
  const space = useCurrentSpace();
  return (
    <p className="field-hint" id="settings-per-space">
      {space.id === PERSONAL_ID
        ? 'Memory writes and Memory loaded at the start apply to Personal and to every space without its own setting.'
        : `Memory writes and Memory loaded at the start apply to the space “${space.name}” only.`}
    </p>
  );
}

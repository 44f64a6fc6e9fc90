// Export memory in the panel: what the export left out is shown with its reasons, not dropped silently.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { setApi } from '../../renderer/api';
import { Toaster } from '../../renderer/components/toaster';
import { MemoryPanel } from '../../renderer/features/memory';
import { resetHost } from '../../renderer/features/memory/host';
import { bindMemoryEvents, resetMemoryStore } from '../../renderer/store/memory';
import { useToasts } from '../../renderer/store/toast';
import { createFakeBackend, type FakeBackend } from './memory-fake-backend';

let backend: FakeBackend;
let unbind: () => void;

beforeEach(() => {
  resetHost();
  resetMemoryStore();
  useToasts.setState({ toasts: [] });
  backend = createFakeBackend({ '/memories/notes.md': 'hello\n' });
  setApi(backend.api);
  unbind = bindMemoryEvents(backend.api);
});
afterEach(() => {
  unbind();
  cleanup();
  setApi(null);
});

function renderPanel(): void {
  render(
    <>
      <MemoryPanel />
      <Toaster />
    </>,
  );
}

it('lists what the export left out, with the reasons, until closed', async () => {
  const skipped = [
    { path: 'memories/f\ufffd.md', reason: 'Its name is not valid UTF-8, so no memory path can name it.' },
    { path: 'memories/hard.md', reason: 'It has more than one hard link.' },
  ];
  backend.impl['memory.export'] = () => ({ saved: true, fileName: 'mnemo-memory.zip', skipped });
  renderPanel();
  fireEvent.click(await screen.findByRole('button', { name: 'Export memory' }));
  const dialog = await screen.findByRole('dialog', { name: 'Not in the export' });
  const list = within(dialog).getByRole('region', { name: 'Left out' });
  for (const s of skipped) {
    const item = within(list).getByText(s.path).closest('li');
    expect(item?.textContent).toContain(s.reason);
  }
  expect(await screen.findByText(/Saved mnemo-memory\.zip \(2 items left out\)/)).toBeTruthy();
  fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
  expect(screen.queryByRole('dialog', { name: 'Not in the export' })).toBeNull();
});

it('says nothing more when nothing was left out', async () => {
  backend.impl['memory.export'] = () => ({ saved: true, fileName: 'mnemo-memory.zip', skipped: [] });
  renderPanel();
  fireEvent.click(await screen.findByRole('button', { name: 'Export memory' }));
  expect(await screen.findByText('Saved mnemo-memory.zip')).toBeTruthy();
  expect(screen.queryByRole('dialog', { name: 'Not in the export' })).toBeNull();
});

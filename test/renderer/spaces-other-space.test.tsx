// The switcher's two calls into a space other than the window's, through the renderer's real client
// transport (test/renderer/space-wire.ts answers each call in the space its envelope names): a space that
// stays highlighted is opened in the backend ahead of the click, and "Export first" exports the space
// being deleted while the window stays where it is.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetContextStore } from '../../renderer/store/context';
import { resetMemoryStore } from '../../renderer/store/memory';
import { forgetWarmed } from '../../renderer/store/space-calls';
import { createSpaceWire, type SpaceWire } from './space-wire';
import { resetSpaces } from './spaces-backend';
import { resetWindowStores, windowTests } from './window-setup';

let wire: SpaceWire;
const theWindow = windowTests();

beforeEach(async () => {
  localStorage.clear();
  resetSpaces();
  forgetWarmed();
  resetMemoryStore();
  resetContextStore();
  resetWindowStores();
  wire = createSpaceWire({
    personal: { '/memories/personal.md': '- PERSONAL only\n' },
    work01: { '/memories/work.md': '- WORK only\n' },
  });
  await theWindow.start(wire.api);
});

const inWork = () => wire.answered.filter(([, space]) => space === 'work01').map(([channel]) => channel);

async function highlightWork(): Promise<void> {
  fireEvent.click(await screen.findByRole('button', { name: 'Space: Personal' }));
  const list = await screen.findByRole('listbox', { name: 'Spaces' });
  await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2));
  fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
}

describe('calls into another space', () => {
  it('opens a space that stays highlighted in the backend before it is picked', async () => {
    expect(inWork()).toEqual([]);
    await highlightWork();
    await waitFor(() => expect(inWork()).toEqual(['memory.stale']));
    // Still in Personal: nothing on screen changed.
    expect(screen.getByRole('button', { name: 'Space: Personal' })).toBeTruthy();
    // Once per space: highlighting it again asks nothing more.
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inWork()).toEqual(['memory.stale']);
  });

  it('Export first exports the space being deleted, and the window stays in its own', async () => {
    wire.spaces.get('work01')!.impl['memory.export'] = () => ({
      saved: true,
      fileName: 'mnemo-memory-work01.zip',
      skipped: [],
    });
    wire.spaces.get('personal')!.impl['memory.export'] = () => {
      throw new Error('exported the wrong space');
    };
    await highlightWork();
    fireEvent.click(screen.getByRole('button', { name: 'Delete work01' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete space “work01”?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export first' }));
    await screen.findByText('Saved mnemo-memory-work01.zip');
    expect(inWork()).toContain('memory.export');
    expect(screen.getByRole('button', { name: 'Space: Personal' })).toBeTruthy();
    expect(screen.getByRole('alertdialog', { name: 'Delete space “work01”?' })).toBeTruthy();
  });
});

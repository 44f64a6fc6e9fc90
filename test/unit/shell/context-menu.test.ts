// The right-click menu from the click's params (Electron's ContextMenuParams), and what its items do.
import { describe, expect, it } from 'vitest';
import {
  contextMenuTemplate,
  MAX_SUGGESTIONS,
  toElectronItems,
  type ContextMenuParams,
} from '../../../electron/shell/context-menu.js';

const flags = { canCut: false, canCopy: false, canPaste: false, canSelectAll: false };
const params = (over: Partial<ContextMenuParams>): ContextMenuParams => ({
  isEditable: false,
  selectionText: '',
  misspelledWord: '',
  dictionarySuggestions: [],
  linkURL: '',
  editFlags: flags,
  ...over,
});
const summary = (p: ContextMenuParams) =>
  contextMenuTemplate(p).map((i) => i.type ?? i.role ?? i.label) as string[];

describe('context menu', () => {
  it('in the message box: cut, copy, paste, select all, enabled as the click allows', () => {
    const items = contextMenuTemplate(
      params({ isEditable: true, editFlags: { ...flags, canPaste: true, canSelectAll: true } }),
    );
    expect(items).toEqual([
      { role: 'cut', enabled: false },
      { role: 'copy', enabled: false },
      { role: 'paste', enabled: true },
      { type: 'separator' },
      { role: 'selectAll', enabled: true },
    ]);
  });

  it('on a misspelled word: its suggestions and Add to Dictionary first', () => {
    const p = params({
      isEditable: true,
      misspelledWord: 'memroy',
      dictionarySuggestions: ['memory', 'memo'],
      editFlags: { ...flags, canCut: true, canCopy: true },
    });
    expect(summary(p)).toEqual([
      'memory',
      'memo',
      'Add to Dictionary',
      'separator',
      'cut',
      'copy',
      'paste',
      'separator',
      'selectAll',
    ]);
    const items = contextMenuTemplate(p);
    expect(items[0]!.action).toEqual({ kind: 'replace-misspelling', word: 'memory' });
    expect(items[2]!.action).toEqual({ kind: 'add-to-dictionary', word: 'memroy' });
  });

  it('a misspelling with no suggestion says so, and still offers Add to Dictionary', () => {
    const items = contextMenuTemplate(params({ isEditable: true, misspelledWord: 'Mnemo' }));
    expect(items.slice(0, 2)).toEqual([
      { label: 'No Guesses Found', enabled: false },
      { label: 'Add to Dictionary', action: { kind: 'add-to-dictionary', word: 'Mnemo' } },
    ]);
  });

  it('offers at most a handful of suggestions', () => {
    const many = Array.from({ length: 12 }, (_, i) => `word${i}`);
    const items = contextMenuTemplate(
      params({ isEditable: true, misspelledWord: 'wrod', dictionarySuggestions: many }),
    );
    expect(items.filter((i) => i.action?.kind === 'replace-misspelling')).toHaveLength(MAX_SUGGESTIONS);
  });

  it('on selected text of an answer: copy only', () => {
    expect(summary(params({ selectionText: 'some answer', editFlags: { ...flags, canCopy: true } }))).toEqual(
      ['copy'],
    );
  });

  it('on an https link: Copy Link; other links are not offered', () => {
    const items = contextMenuTemplate(params({ linkURL: 'https://example.com/a' }));
    expect(items).toEqual([
      { label: 'Copy Link', action: { kind: 'copy-link', url: 'https://example.com/a' } },
    ]);
    for (const linkURL of ['javascript:alert(1)', 'file:///etc/passwd', 'app://mnemo/index.html']) {
      expect(contextMenuTemplate(params({ linkURL }))).toEqual([]);
    }
  });

  it('nothing to offer (a click on plain text): no menu', () => {
    expect(contextMenuTemplate(params({}))).toEqual([]);
    expect(contextMenuTemplate(params({ selectionText: '  ' }))).toEqual([]);
  });

  it('its items do what they say', () => {
    const done: string[] = [];
    const items = toElectronItems(
      contextMenuTemplate(
        params({
          isEditable: true,
          misspelledWord: 'teh',
          dictionarySuggestions: ['the'],
          linkURL: 'https://example.com/',
        }),
      ),
      {
        replaceMisspelling: (w) => done.push(`replace ${w}`),
        addWordToSpellCheckerDictionary: (w) => done.push(`add ${w}`),
        writeClipboardText: (t) => done.push(`clipboard ${t}`),
      },
    );
    for (const item of items) item.click?.(undefined as never, undefined as never, undefined as never);
    expect(done).toEqual(['replace the', 'add teh', 'clipboard https://example.com/']);
    expect(items.filter((i) => i.role).map((i) => i.role)).toEqual(['cut', 'copy', 'paste', 'selectAll']);
  });
});

// CodeMirror 6 with Markdown, loaded lazily (its own chunk) the first time a file is edited. Uncontrolled:
// the parent remounts it (a new `key`) to replace the text, e.g. after "Take theirs".
import { useEffect, useRef } from 'react';
import { EditorView, basicSetup } from 'codemirror';
import { markdown } from '@codemirror/lang-markdown';
import { EditorState } from '@codemirror/state';
import { keymap } from '@codemirror/view';

export interface MarkdownEditorProps {
  initial: string;
  label: string;
  onChange: (text: string) => void;
  onSave: () => void;
}

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: 'var(--surface)', color: 'var(--text)' },
  '.cm-content': { fontFamily: 'var(--font-mono)', caretColor: 'var(--text)' },
  '.cm-gutters': {
    backgroundColor: 'var(--bg-subtle)',
    color: 'var(--text-muted)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--bg-hover)' },
  '&.cm-focused': { outline: '2px solid var(--focus)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { backgroundColor: 'var(--bg-selected)' },
});

export default function MarkdownEditor({ initial, label, onChange, onSave }: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onChange, onSave });
  useEffect(() => {
    handlers.current = { onChange, onSave };
  });

  useEffect(() => {
    // CodeMirror injects its styles at runtime. In a document that needs a <style> element, which the
    // app's Content-Security-Policy (style-src 'self') refuses; in a shadow root it uses constructed
    // stylesheets, which CSP allows. CSS variables (the theme) still inherit into the shadow root.
    const shadow = host.current!.shadowRoot ?? host.current!.attachShadow({ mode: 'open' });
    const parent = document.createElement('div');
    parent.style.height = '100%';
    shadow.append(parent);
    const view = new EditorView({
      root: shadow,
      parent,
      state: EditorState.create({
        doc: initial,
        extensions: [
          keymap.of([
            {
              key: 'Mod-s',
              preventDefault: true,
              run: () => {
                handlers.current.onSave();
                return true;
              },
            },
          ]),
          basicSetup,
          markdown(),
          EditorView.lineWrapping,
          theme,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) handlers.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    return () => {
      view.destroy();
      parent.remove();
    };
    // The editor is uncontrolled: `initial` only seeds it (a new key remounts it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return <div ref={host} className="mp-editor__cm" data-testid="memory-editor" />;
}

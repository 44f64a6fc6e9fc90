// Markdown for untrusted text (model output, memory files): GFM, highlighted code, no raw HTML (dropped),
// links that never navigate (a click goes through the main side's check), and no images loaded at all
// (an image URL could carry memory contents to a remote server), only their alt text.
import { memo, useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { copyText, openExternal } from '../store/links';
import { IconButton } from './button';
import { highlightCode, loadHighlighter, onHighlighterLoaded, useHighlighterLoaded } from './highlighter';
import './markdown.css';

const components: Components = {
  a({ href, children }) {
    return (
      <a
        href={href}
        className="md-link"
        title={href}
        rel="noreferrer noopener"
        onClick={(e) => {
          e.preventDefault();
          if (href) void openExternal(href);
        }}
      >
        {children}
      </a>
    );
  },
  img({ alt }) {
    return <span className="md-image">[image{alt ? `: ${alt}` : ''}]</span>;
  },
  pre({ children }) {
    return <CodeBlock>{children}</CodeBlock>;
  },
  input({ type, checked }) {
    // GFM task-list boxes: read-only, and named so screen readers say what the box means.
    if (type !== 'checkbox') return null;
    return (
      <input type="checkbox" checked={checked ?? false} disabled aria-label={checked ? 'Done' : 'Not done'} />
    );
  },
  table({ children }) {
    return (
      <div className="md-table-wrap">
        <table>{children}</table>
      </div>
    );
  },
};

function CodeBlock({ children }: { children: React.ReactNode }): ReactElement {
  const ref = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  return (
    <div className="md-code">
      <IconButton
        className="md-code-copy"
        size="sm"
        label={copied ? 'Copied' : 'Copy code'}
        icon={copied ? 'check' : 'copy'}
        onClick={() => {
          void copyText(ref.current?.textContent ?? '').then((ok) => {
            if (!ok) return;
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          });
        }}
      />
      <pre ref={ref} tabIndex={0}>
        {children}
      </pre>
    </div>
  );
}

const remarkPlugins = [remarkGfm];

const rehypePlugins = [highlightCode];

// Rendered trees by text, so a message scrolled out of the virtualized list and back (or re-opened) is
// not parsed again. React elements are immutable descriptions and safe to reuse across mounts.
const CACHE_SIZE = 300;
const rendered = new Map<string, ReactElement>();
// Renders made before the highlighter arrived show code plain: drop them.
onHighlighterLoaded(() => rendered.clear());
function renderMarkdown(text: string): ReactElement {
  const hit = rendered.get(text);
  if (hit) {
    // Refresh its place in the LRU order.
    rendered.delete(text);
    rendered.set(text, hit);
    return hit;
  }
  // react-markdown's default export is a synchronous function without hooks, so calling it here is safe.
  const element = ReactMarkdown({
    skipHtml: true,
    remarkPlugins,
    rehypePlugins,
    components,
    children: text,
  });
  rendered.set(text, element);
  if (rendered.size > CACHE_SIZE) rendered.delete(rendered.keys().next().value as string);
  return element;
}

// Small pieces, each its own idle task, so the warm-up never becomes a long task itself.
const WARM_UP = [
  '# Warm-up\n\nSome *text* with `code`, a [link](https://example.com) and a list:\n\n- one\n- two\n',
  ...['ts', 'js', 'python', 'bash', 'json'].map(
    (lang) => '```' + lang + '\nconst x = { a: "b" }; // 1\n```\n',
  ),
];

/**
 * Pays the one-time costs (the highlighter's chunk and grammars, the parser's first runs) while the app is
 * idle after starting, instead of in the first conversation the user opens. The results are thrown away.
 */
export function warmUpMarkdown(): void {
  // The highlighter first, in a step of its own; if it cannot load, code stays plain and the rest still helps.
  const rest = (): void => warmUpPieces(WARM_UP);
  const load = (): void => void loadHighlighter().then(rest, rest);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 200);
}

function warmUpPieces(pieces: readonly string[]): void {
  const [piece, ...rest] = pieces;
  if (piece === undefined) {
    // A ready marker for measurements that must not count start-up work (bench/ui's streaming case).
    document.documentElement.dataset.markdownWarm = 'done';
    return;
  }
  const run = (): void => {
    ReactMarkdown({ skipHtml: true, remarkPlugins, rehypePlugins, components, children: piece });
    warmUpPieces(rest);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}

// A streamed answer re-parses its whole text on each update: at most this often, so that at hundreds of
// deltas a second the main thread stays free (the text still grows smoothly, ~20 times a second).
const LIVE_INTERVAL_MS = 50;

/** `text` while `live` is false; while it is true, `text` at most every LIVE_INTERVAL_MS (the last always). */
function useLiveText(text: string, live: boolean): string {
  const [shown, setShown] = useState(text);
  const lastAt = useRef(0);
  useEffect(() => {
    if (!live) return;
    const wait = Math.max(0, LIVE_INTERVAL_MS - (performance.now() - lastAt.current));
    const timer = setTimeout(() => {
      lastAt.current = performance.now();
      setShown(text);
    }, wait);
    return () => clearTimeout(timer);
  }, [text, live]);
  return live ? shown : text;
}

/**
 * Renders Markdown; memoised on the text so an unchanged message never re-parses while another streams.
 * `live` (a growing, streamed answer) skips the cache (each intermediate text is seen once) and is
 * throttled.
 */
export const Markdown = memo(function Markdown({
  text,
  className,
  live = false,
}: {
  text: string;
  className?: string;
  live?: boolean;
}) {
  const shown = useLiveText(text, live);
  const highlighted = useHighlighterLoaded();
  const body = useMemo(
    () =>
      live
        ? ReactMarkdown({ skipHtml: true, remarkPlugins, rehypePlugins, components, children: shown })
        : renderMarkdown(shown),
    // `highlighted`: render again, with colours, once the highlighter has arrived.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [shown, live, highlighted],
  );
  return <div className={`markdown${className ? ` ${className}` : ''}`}>{body}</div>;
});

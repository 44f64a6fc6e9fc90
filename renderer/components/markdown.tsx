// Markdown for untrusted text (model output, memory files): GFM, highlighted code, no raw HTML (dropped),
// links that never navigate (a click goes through the main side's check), and no images loaded at all
// (an image URL could carry memory contents to a remote server), only their alt text.
import { memo, useRef, useState, type ReactElement } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { copyText, openExternal } from '../store/links';
import { IconButton } from './button';
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
const rehypePlugins = [[rehypeHighlight, { detect: false, ignoreMissing: true }]] as const;

/** Renders Markdown; memoised on the text so an unchanged message never re-parses while another streams. */
export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  return (
    <div className={`markdown${className ? ` ${className}` : ''}`}>
      <ReactMarkdown
        skipHtml
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins as unknown as never}
        components={components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});

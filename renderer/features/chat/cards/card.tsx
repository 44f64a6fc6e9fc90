// The frame shared by inline cards: an icon, a one-line summary, optional expansion.
import { useId, useState, type ReactElement, type ReactNode } from 'react';
import { Icon, type IconName } from '../../../components';

export function Card({
  icon,
  tone = 'neutral',
  summary,
  meta,
  children,
  actions,
  label,
  defaultOpen = false,
}: {
  icon: IconName;
  tone?: 'neutral' | 'error' | 'memory' | 'context' | 'review';
  summary: ReactNode;
  /** Small text at the end of the header (duration, status). */
  meta?: ReactNode;
  /** Expandable details; without them the card is one line. */
  children?: ReactNode;
  actions?: ReactNode;
  /** Accessible name of the card. */
  label: string;
  defaultOpen?: boolean;
}): ReactElement {
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  const expandable = children !== undefined && children !== null && children !== false;
  const header = (
    <>
      <span className="card-icon">
        <Icon name={icon} size={14} />
      </span>
      <span className="card-summary">{summary}</span>
      {meta && <span className="card-meta">{meta}</span>}
      {expandable && (
        <span className="card-chevron">
          <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
        </span>
      )}
    </>
  );
  return (
    <section className={`card card-${tone}`} aria-label={label}>
      <div className="card-head">
        {expandable ? (
          <button
            type="button"
            className="card-toggle"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => setOpen((o) => !o)}
          >
            {header}
          </button>
        ) : (
          <div className="card-toggle card-static">{header}</div>
        )}
        {actions && <div className="card-actions">{actions}</div>}
      </div>
      {expandable && open && (
        <div className="card-body" id={bodyId}>
          {children}
        </div>
      )}
    </section>
  );
}

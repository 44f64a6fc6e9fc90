// An accessible modal dialog: role="dialog" with aria-modal and a labelled title, focus moved inside on
// open and kept there (Tab wraps), Escape closes, focus goes back to what had it before.
import { useEffect, useId, useRef, type ReactElement, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { IconButton } from './button';
import './components.css';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom, right-aligned. */
  footer?: ReactNode;
  /** Optional line under the title (becomes the accessible description). */
  description?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** Element to focus first (defaults to the first focusable element in the body). */
  initialFocus?: React.RefObject<HTMLElement | null>;
  /** Use role="alertdialog" (confirmations). */
  alert?: boolean;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog(props: DialogProps): ReactElement | null {
  if (!props.open) return null;
  return createPortal(<DialogInner {...props} />, document.body);
}

function DialogInner({
  title,
  onClose,
  children,
  footer,
  description,
  size = 'md',
  initialFocus,
  alert,
}: DialogProps): ReactElement {
  const titleId = useId();
  const descId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const node = ref.current;
    const target =
      initialFocus?.current ??
      node?.querySelector('.dialog-body')?.querySelector<HTMLElement>(FOCUSABLE) ??
      node?.querySelector<HTMLElement>('.dialog-footer button') ??
      node;
    target?.focus();
    return () => {
      if (previous && document.contains(previous)) previous.focus();
    };
  }, [initialFocus]);

  const onKeyDown = (e: React.KeyboardEvent): void => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      onCloseRef.current();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const focusables = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => !el.closest('[hidden], [inert]'),
    );
    if (!focusables.length) {
      e.preventDefault();
      return;
    }
    const first = focusables[0]!;
    const last = focusables[focusables.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onCloseRef.current();
      }}
    >
      <div
        ref={ref}
        role={alert ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descId : undefined}
        className={`dialog dialog-${size}`}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="dialog-header">
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          <IconButton label="Close" icon="close" size="sm" onClick={() => onCloseRef.current()} />
        </header>
        {description && (
          <p id={descId} className="dialog-description">
            {description}
          </p>
        )}
        <div className="dialog-body">{children}</div>
        {footer && <footer className="dialog-footer">{footer}</footer>}
      </div>
    </div>
  );
}

// Renders the toast store: a polite live region at the bottom centre; each toast may carry one action.
import { useEffect, type ReactElement } from 'react';
import { useToasts, type Toast } from '../store/toast';
import { Button, IconButton } from './button';
import './components.css';

export function Toaster(): ReactElement {
  const toasts = useToasts((s) => s.toasts);
  return (
    <div className="toaster" role="region" aria-label="Notifications">
      <div aria-live="polite" className="toaster-list">
        {toasts.map((t) => (
          <ToastView key={t.id} toast={t} />
        ))}
      </div>
    </div>
  );
}

function ToastView({ toast }: { toast: Toast }): ReactElement {
  const dismiss = useToasts((s) => s.dismiss);
  useEffect(() => {
    if (!toast.timeoutMs) return;
    const timer = setTimeout(() => dismiss(toast.id), toast.timeoutMs);
    return () => clearTimeout(timer);
  }, [toast.id, toast.timeoutMs, dismiss]);
  return (
    <div className={`toast toast-${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
      <span className="toast-message">{toast.message}</span>
      {toast.action && (
        <Button
          size="sm"
          variant="ghost"
          className="toast-action"
          onClick={() => {
            dismiss(toast.id);
            void toast.action?.run();
          }}
        >
          {toast.action.label}
        </Button>
      )}
      <IconButton label="Dismiss" icon="close" size="sm" onClick={() => dismiss(toast.id)} />
    </div>
  );
}

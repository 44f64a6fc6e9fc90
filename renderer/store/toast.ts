// Toasts: short messages at the bottom of the window, optionally with one action (e.g. Undo). Any feature
// calls `toast(...)`; the <Toaster/> in the layout renders them.
import { create } from 'zustand';

export interface ToastAction {
  label: string;
  run: () => void | Promise<void>;
}

export interface Toast {
  id: number;
  message: string;
  tone: 'info' | 'success' | 'warning' | 'error';
  action?: ToastAction | undefined;
  /** Milliseconds before it hides itself; 0 keeps it until dismissed. */
  timeoutMs: number;
}

interface ToastState {
  toasts: Toast[];
  show(t: Omit<Toast, 'id' | 'timeoutMs' | 'tone'> & Partial<Pick<Toast, 'timeoutMs' | 'tone'>>): number;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToasts = create<ToastState>()((set) => ({
  toasts: [],
  show(t) {
    const id = nextId++;
    const toast: Toast = {
      id,
      tone: t.tone ?? 'info',
      message: t.message,
      action: t.action,
      // Toasts with an action stay longer: people need time to reach Undo.
      timeoutMs: t.timeoutMs ?? (t.action ? 10_000 : 5_000),
    };
    // At most four at a time; the oldest goes first.
    set((s) => ({ toasts: [...s.toasts, toast].slice(-4) }));
    return id;
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((x) => x.id !== id) }));
  },
}));

/** Show a toast from anywhere (stores, bridge, components). Returns its id. */
export function toast(
  message: string,
  options: { tone?: Toast['tone']; action?: ToastAction; timeoutMs?: number } = {},
): number {
  return useToasts.getState().show({ message, ...options });
}

// The Undo action of a toast: the Toaster fires and forgets it, so a failed undo must report itself.
import { errorMessage } from '../../lib/format';
import { toast, type ToastAction } from '../../store/toast';

export function undoAction(run: () => Promise<void>, done = 'Undone.'): ToastAction {
  return {
    label: 'Undo',
    run: async () => {
      try {
        await run();
        toast(done, { tone: 'success' });
      } catch (err) {
        toast(`Could not undo: ${errorMessage(err)}`, { tone: 'error' });
      }
    },
  };
}

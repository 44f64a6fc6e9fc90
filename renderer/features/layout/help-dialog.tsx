// The keyboard shortcuts, listed from the same table the key handler uses.
import { Fragment, type ReactElement } from 'react';
import { Button, Dialog } from '../../components';
import { useUi } from '../../store/ui';
import { shortcuts } from './shortcuts';

export function HelpDialog(): ReactElement {
  const open = useUi((s) => s.helpOpen);
  const setOpen = useUi((s) => s.openHelp);
  return (
    <Dialog
      open={open}
      title="Keyboard shortcuts"
      onClose={() => setOpen(false)}
      footer={
        <Button variant="primary" onClick={() => setOpen(false)}>
          Done
        </Button>
      }
    >
      <table className="shortcut-table">
        <caption className="visually-hidden">Keyboard shortcuts</caption>
        <thead className="visually-hidden">
          <tr>
            <th scope="col">Action</th>
            <th scope="col">Keys</th>
          </tr>
        </thead>
        <tbody>
          {shortcuts.map((s) => (
            <tr key={s.id}>
              <td>{s.description}</td>
              <td className="shortcut-keys">
                {s.keys.map((k, i) => (
                  <Fragment key={k}>
                    {i > 0 && <span aria-hidden="true">+</span>}
                    <kbd>{k}</kbd>
                  </Fragment>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

// The switcher at the top of the sidebar: a button named "Space: NAME" in the space's colour that opens
// a popover with the list of spaces (with counts) and what can be done to them. Escape or a click outside
// closes it and gives focus back to the button; the popover floats over the sidebar, so opening it moves
// nothing.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Button, Icon } from '../../components';
import { modKey, shortcuts } from '../layout/shortcuts';
import { useUi } from '../../store/ui';
import { DeleteSpaceDialog } from './delete-space-dialog';
import { RecentlyDeleted } from './recently-deleted';
import { SpaceFormDialog, type SpaceForm } from './space-form-dialog';
import { SpaceList } from './space-list';
import {
  PERSONAL_ID,
  prewarmSpace,
  refreshCounts,
  switchSpace,
  useCurrentSpace,
  useSpaceList,
  useSwitching,
} from './use-spaces';
import './spaces.css';

/** From the one shortcut table (layout/shortcuts.ts), so the tooltip shows the keys that work. */
const SWITCHER_KEYS = shortcuts.find((s) => s.id === 'switch-space')?.keys ?? [];
const ARIA_KEYS = `${modKey === 'Ctrl' ? 'Control' : 'Meta'}+Shift+S`;
const PREWARM_MS = 120;

export function SpaceSwitcher(): ReactElement {
  const current = useCurrentSpace();
  const spaces = useSpaceList();
  const switching = useSwitching();
  const [open, setOpen] = useState(false);
  const [activeId, setActiveId] = useState(current.id);
  const [form, setForm] = useState<SpaceForm | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const popRef = useRef<HTMLDivElement>(null);

  const show = (): void => {
    setActiveId(current.id);
    setOpen(true);
    void refreshCounts();
  };
  const hide = (focusButton = true): void => {
    setOpen(false);
    if (focusButton) buttonRef.current?.focus();
  };

  // The shortcut asks through the ui slice; each new request opens the list on the current space.
  const showRef = useRef(show);
  useEffect(() => {
    showRef.current = show;
  });
  useEffect(
    () =>
      useUi.subscribe((s, prev) => {
        if (s.focusSpaceSwitcher !== prev.focusSpaceSwitcher) showRef.current();
      }),
    [],
  );

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent): void => {
      const target = e.target as Node;
      if (popRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  // A dialog takes the popover's place (so a click in it is not "outside"); closing it returns to the button.
  const openForm = (next: SpaceForm): void => {
    setOpen(false);
    setForm(next);
  };
  const openDelete = (id: string): void => {
    if (id === PERSONAL_ID) return;
    setOpen(false);
    setDeleting(id);
  };

  // A space that stays highlighted (or under the pointer) a moment is likely the next one: open it in the
  // backend now, so the switch does not wait for its memory and conversations to be opened.
  const [resting, setResting] = useState<string | null>(null);
  useEffect(() => {
    if (!open || !resting) return;
    const timer = setTimeout(() => prewarmSpace(resting), PREWARM_MS);
    return () => clearTimeout(timer);
  }, [open, resting]);

  const pick = (id: string): void => {
    hide();
    if (id !== current.id) void switchSpace(id);
  };
  const active = spaces.find((s) => s.id === activeId) ?? current;
  const shortcut = SWITCHER_KEYS.join('+');

  return (
    <div className="sp-switcher">
      <button
        ref={buttonRef}
        type="button"
        className="sp-button"
        aria-label={`Space: ${current.name}`}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-keyshortcuts={ARIA_KEYS}
        title={`Switch space (${shortcut})`}
        style={{ '--space-colour': current.colour } as React.CSSProperties}
        aria-busy={switching || undefined}
        onClick={() => (open ? hide() : show())}
        onKeyDown={(e) => {
          // As a menu button: the arrow keys open the list too.
          if (!open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
            e.preventDefault();
            show();
          }
        }}
      >
        <span className="sp-dot" style={{ background: current.colour }} aria-hidden="true" />
        <span className="sp-button-name">{current.name}</span>
        <Icon name="chevronDown" size={14} />
      </button>
      {open && (
        <div
          ref={popRef}
          className="sp-popover"
          role="dialog"
          aria-label="Spaces"
          onBlur={(e) => {
            // Tab out of the list closes it, as focus leaving any popover does.
            const to = e.relatedTarget as Node | null;
            if (to && !popRef.current?.contains(to) && !buttonRef.current?.contains(to)) setOpen(false);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              hide();
            }
          }}
        >
          <SpaceList
            spaces={spaces}
            currentId={current.id}
            activeId={active.id}
            onActive={(id) => {
              setActiveId(id);
              setResting(id);
            }}
            onHover={setResting}
            onPick={pick}
            onRename={(id) => openForm({ kind: 'edit', id, focus: 'name' })}
            onDelete={openDelete}
          />
          <div className="sp-actions" role="group" aria-label={`Actions for ${active.name}`}>
            <Button
              size="sm"
              aria-label={`Rename ${active.name}`}
              onClick={() => openForm({ kind: 'edit', id: active.id, focus: 'name' })}
            >
              Rename
            </Button>
            <Button
              size="sm"
              aria-label={`Colour of ${active.name}`}
              onClick={() => openForm({ kind: 'edit', id: active.id, focus: 'colour' })}
            >
              Colour
            </Button>
            {active.id !== PERSONAL_ID && (
              <Button
                size="sm"
                variant="ghost"
                className="sp-danger-text"
                aria-label={`Delete ${active.name}`}
                onClick={() => openDelete(active.id)}
              >
                Delete
              </Button>
            )}
          </div>
          <div className="sp-footer">
            <Button size="sm" icon="plus" onClick={() => openForm({ kind: 'create' })}>
              New space
            </Button>
            <span className="sp-hint">
              <kbd>{shortcut}</kbd>
            </span>
          </div>
          <RecentlyDeleted />
        </div>
      )}
      {form && (
        <SpaceFormDialog
          form={form}
          onClose={() => {
            buttonRef.current?.focus();
            setForm(null);
          }}
        />
      )}
      {deleting && (
        <DeleteSpaceDialog
          spaceId={deleting}
          onClose={() => {
            buttonRef.current?.focus();
            setDeleting(null);
          }}
        />
      )}
    </div>
  );
}

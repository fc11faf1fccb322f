import { forwardRef, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export interface MenuAction {
  label: string;
  /** Offered but not available now: it stays in the menu (focusable, never run) and `describedBy` says why. */
  disabled?: boolean;
  describedBy?: string | undefined;
  onSelect(): void;
}

/** The mark that says the button opens a menu: a sign, not a word (hidden from assistive technology). */
const MENU_MARK = '▾';

interface ActionsMenuProps {
  /** What the button shows ("Actions"). */
  text: string;
  /**
   * Words that follow `text` in the button's accessible name without being shown ("for “Hinge”": "Actions for
   * “Hinge”"): the shown words stay the start of its name in every language, as speech input expects.
   */
  context?: string;
  /** Or the button's whole accessible name, when it does not start with what it shows. */
  label?: string;
  actions: MenuAction[];
}

/**
 * A menu button (WAI-ARIA menu pattern): Enter, Space or ↓ opens it on its first item, ↑ on its last; ↑ ↓ Home End
 * move; Escape closes it and gives the focus back to the button; Tab or a click elsewhere closes it.
 */
export const ActionsMenu = forwardRef<HTMLButtonElement, ActionsMenuProps>(function ActionsMenu({ label, text, context, actions }, buttonRef) {
  const id = useId();
  const [open, setOpen] = useState<false | 'first' | 'last'>(false);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const ownButton = useRef<HTMLButtonElement | null>(null);
  const wrapper = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) items.current[open === 'first' ? 0 : actions.length - 1]?.focus();
  }, [open, actions.length]);

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) ownButton.current?.focus();
  };
  const move = (from: number, step: number) => items.current[(from + step + actions.length) % actions.length]?.focus();

  function onButtonKey(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  }
  function onMenuKey(event: KeyboardEvent, index: number) {
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(index, 1),
      ArrowUp: () => move(index, -1),
      Home: () => items.current[0]?.focus(),
      End: () => items.current[actions.length - 1]?.focus(),
      Escape: () => close(true),
    };
    const handle = keys[event.key];
    if (handle) {
      event.preventDefault();
      event.stopPropagation();
      handle();
    } else if (event.key === 'Tab') {
      close(false);
    }
  }

  return (
    <div className="actions-menu" ref={wrapper}
      onBlur={(event) => {
        if (open && !wrapper.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}>
      {context ? <span id={`${id}-context`} hidden>{context}</span> : null}
      <button type="button" id={`${id}-button`} aria-label={label} aria-labelledby={context && !label ? `${id}-text ${id}-context` : undefined} aria-haspopup="menu" aria-expanded={open ? true : false}
        aria-controls={open ? `${id}-menu` : undefined}
        ref={(node) => {
          ownButton.current = node;
          if (typeof buttonRef === 'function') buttonRef(node);
          else if (buttonRef) buttonRef.current = node;
        }}
        onKeyDown={onButtonKey} onClick={() => (open ? close(true) : setOpen('first'))}>
        <span id={`${id}-text`}>{text}</span> <span aria-hidden="true">{MENU_MARK}</span>
      </button>
      {open ? (
        <ul className="actions-menu-list" role="menu" id={`${id}-menu`} aria-labelledby={`${id}-button`}>
          {actions.map((action, index) => (
            <li key={action.label} role="none">
              <button type="button" role="menuitem" tabIndex={-1} ref={(node) => { items.current[index] = node; }}
                aria-disabled={action.disabled ? true : undefined} aria-describedby={action.disabled ? action.describedBy : undefined}
                onKeyDown={(event) => onMenuKey(event, index)}
                onClick={() => {
                  if (action.disabled) return;
                  setOpen(false);
                  action.onSelect();
                }}>
                {action.label}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
});

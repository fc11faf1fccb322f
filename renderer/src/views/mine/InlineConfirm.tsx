import { useEffect, useRef, type ReactNode } from 'react';

interface InlineConfirmProps {
  /** The group's accessible name ("Confirm deletion"). */
  label: string;
  children: ReactNode;
  confirmText: string;
  confirmClass: string;
  confirmDisabled: boolean;
  describedBy: string | undefined;
  onConfirm(): void;
  cancelText: string;
  /** Closes the question (its cancel button, or Escape); whoever opened it takes the focus back. */
  onCancel(): void;
}

/** A question asked in place before something that cannot be undone: the focus starts on the answer that does nothing. */
export function InlineConfirm({ label, children, confirmText, confirmClass, confirmDisabled, describedBy, onConfirm, cancelText, onCancel }: InlineConfirmProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="own-confirm" role="group" aria-label={label}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onCancel();
      }}>
      <span>{children}</span>
      <button type="button" className={confirmClass} disabled={confirmDisabled} aria-describedby={describedBy} onClick={onConfirm}>{confirmText}</button>
      <button type="button" ref={cancel} onClick={onCancel}>{cancelText}</button>
    </div>
  );
}

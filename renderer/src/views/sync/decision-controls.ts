import { useId } from 'react';
import { useAvailability } from '../use-availability';

/** How the queue's decision buttons are offered: off only while the window is cut from design-sync; `note` says why or that they wait. */
export interface DecisionControls {
  disabled: boolean;
  /** Spread on each button: points at the note when there is one. */
  describedBy: { 'aria-describedby'?: string };
  note: string | null;
  noteId: string;
}

/**
 * The person's decisions on queue items (retry, cancel, confirm a deletion or a new design, settle a conflict) are
 * recorded by the engine whatever the service's state, and carried out by the queue once it can: offered offline and
 * signed out, saying they wait; off only when the window cannot reach design-sync at all.
 */
export function useDecisionControls(): DecisionControls {
  const decision = useAvailability().can('queue-decision');
  const noteId = useId();
  const note = decision.enabled ? decision.note : decision.reason;
  return { disabled: !decision.enabled, note, noteId, describedBy: note ? { 'aria-describedby': noteId } : {} };
}

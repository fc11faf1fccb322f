import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useAccount } from '../../stores/account-store';
import { useMyDesigns } from '../../stores/my-designs-store';
import { ProblemBanner } from '../shell/ProblemBanner';
import { useReturnPlace } from '../return-place';
import { useAvailability } from '../use-availability';
import { DesignForm } from './DesignForm';
import { OwnDesignRow } from './OwnDesignRow';

/** The signed-in person's designs, drafts included, with their sync state; a new one starts as a draft. */
export function MyDesignsView() {
  const intl = useIntl();
  const { items, listProblem, problem, load, create, dismissProblem } = useMyDesigns();
  const signedIn = useAccount((store) => store.account?.status === 'signed-in');
  const creation = useAvailability().can('create-design');
  const reasonId = useId();
  const [creating, setCreating] = useState(false);
  const newButton = useRef<HTMLButtonElement>(null);
  const [focusNew, setFocusNew] = useState(false);
  useEffect(() => void load(), [load]);
  const returnPlace = useReturnPlace('mine', items !== null);
  // The form closed: the focus goes back to the button that opened it.
  useEffect(() => {
    if (focusNew && !creating) {
      newButton.current?.focus();
      setFocusNew(false);
    }
  }, [focusNew, creating]);
  const closeForm = () => {
    setCreating(false);
    setFocusNew(true);
  };
  return (
    <section className="mine" aria-labelledby="mine-title" {...returnPlace}>
      <header className="mine-header">
        <h2 id="mine-title"><FormattedMessage id="mine.title" /></h2>
        {creating ? null : (
          <div className="own-actions">
            <button type="button" className="primary" ref={newButton} disabled={!creation.enabled} aria-describedby={creation.enabled ? undefined : reasonId}
              onClick={() => setCreating(true)}><FormattedMessage id="mine.newDesign" /></button>
            {creation.enabled ? null : <span id={reasonId} className="action-reason" data-testid="action-reason">{creation.reason}</span>}
          </div>
        )}
      </header>
      {!signedIn ? <p className="empty"><FormattedMessage id="mine.signIn" /></p> : null}
      <ProblemBanner problem={listProblem} />
      <ProblemBanner problem={problem} onDismiss={dismissProblem} />
      {creating ? (
        <DesignForm title={intl.formatMessage({ id: 'mine.create.title' })} submitLabel={intl.formatMessage({ id: 'mine.create.submit' })} availability={creation} onCancel={closeForm}
          onSubmit={async (fields) => {
            const result = await create(fields);
            if (result.ok) closeForm();
            return result;
          }} />
      ) : null}
      {items === null ? <p className="empty" role="status"><FormattedMessage id="mine.loading" /></p>
        : items.length === 0 && signedIn ? <p className="empty"><FormattedMessage id="mine.empty" /></p>
        : <ul className="own-list" aria-label={intl.formatMessage({ id: 'mine.listLabel' })}>{items.map((design) => <OwnDesignRow key={design.card.id} design={design} />)}</ul>}
    </section>
  );
}

import { useEffect, useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { DesignCard } from '../../../../shared';
import { contract } from '../../contract/contract';
import { generatedValues, generatedWords } from '../../thumbnails/CoverPicture';
import { requestThumbnail } from '../../thumbnails/thumbnail-maker';
import { InlineConfirm } from '../mine/InlineConfirm';

type Use = { state: 'idle' } | { state: 'asking' } | { state: 'sending' } | { state: 'done'; fileName: string } | { state: 'failed'; message: string };

/**
 * The design page of a design with no image: the picture made here from its first model (asked for when there is none
 * yet), marked as generated. On the person's own design, "Use as cover" asks first (rule 4: nothing is published in
 * their name without their word), then hands the picture to the engine, which puts it in the design's folder: the
 * queue uploads it as the design's image (offline it waits there, and the activity list says so).
 */
export function GeneratedCover({ card }: { card: DesignCard }) {
  const intl = useIntl();
  const [use, setUse] = useState<Use>({ state: 'idle' });
  const noteId = useId();
  useEffect(() => requestThumbnail(card), [card]);
  if (!card.thumbnailUrl || !card.thumbnailGenerated) {
    return (
      <div className="gallery gallery-empty">
        {card.thumbnailModel
          ? <FormattedMessage id="design.cover.beingMade" values={{ file: card.thumbnailModel.fileName }} />
          : <FormattedMessage id="design.gallery.none" />}
      </div>
    );
  }
  const words = generatedWords(intl, card);
  const confirm = async () => {
    setUse({ state: 'sending' });
    const outcome = await contract.request('design.useGeneratedCover', { id: card.id });
    setUse(outcome.ok ? { state: 'done', fileName: outcome.value.fileName } : { state: 'failed', message: outcome.problem.message });
  };
  return (
    <figure className="gallery gallery-generated" data-testid="generated-cover">
      <img className="gallery-main" src={card.thumbnailUrl} alt={intl.formatMessage({ id: 'design.cover.alt' }, { name: card.name, ...generatedValues(card) })} />
      <figcaption>
        <span className="generated-mark" data-testid="generated-mark">{words}</span>
        <span className="field-help"><FormattedMessage id="design.cover.madeHere" /></span>
      </figcaption>
      {card.own ? (
        use.state === 'asking' || use.state === 'sending' ? (
          <InlineConfirm label={intl.formatMessage({ id: 'design.cover.confirmLabel' })} confirmText={intl.formatMessage({ id: 'design.cover.confirm' })}
            confirmClass="primary" confirmDisabled={use.state === 'sending'} describedBy={noteId} onConfirm={() => void confirm()}
            cancelText={intl.formatMessage({ id: 'design.cover.cancel' })} onCancel={() => setUse({ state: 'idle' })}>
            <span id={noteId}>
              <FormattedMessage id="design.cover.question" values={{ name: card.name, published: card.state === 'published' ? 'yes' : 'no' }} />
            </span>
          </InlineConfirm>
        ) : use.state === 'done' ? (
          <p role="status" data-testid="cover-queued"><FormattedMessage id="design.cover.queued" values={{ file: use.fileName }} /></p>
        ) : (
          <p>
            <button type="button" onClick={() => setUse({ state: 'asking' })}><FormattedMessage id="design.cover.use" /></button>
            {/* The engine's words for what went wrong, as it said them. */}
            {use.state === 'failed' ? <span role="alert" className="action-reason">{use.message}</span> : null}
          </p>
        )
      ) : null}
    </figure>
  );
}

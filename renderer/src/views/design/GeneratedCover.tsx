import { useEffect, useId, useState } from 'react';
import type { DesignCard } from '../../../../shared';
import { contract } from '../../contract/contract';
import { generatedWords } from '../../thumbnails/CoverPicture';
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
  const [use, setUse] = useState<Use>({ state: 'idle' });
  const noteId = useId();
  useEffect(() => requestThumbnail(card), [card]);
  if (!card.thumbnailUrl || !card.thumbnailGenerated) {
    return <div className="gallery gallery-empty">{card.thumbnailModel ? `No images: a picture is being made from ${card.thumbnailModel.fileName}…` : 'No images'}</div>;
  }
  const words = generatedWords(card);
  const confirm = async () => {
    setUse({ state: 'sending' });
    const outcome = await contract.request('design.useGeneratedCover', { id: card.id });
    setUse(outcome.ok ? { state: 'done', fileName: outcome.value.fileName } : { state: 'failed', message: outcome.problem.message });
  };
  return (
    <figure className="gallery gallery-generated" data-testid="generated-cover">
      <img className="gallery-main" src={card.thumbnailUrl} alt={`${card.name}: ${words.toLowerCase()}`} />
      <figcaption>
        <span className="generated-mark" data-testid="generated-mark">{words}</span>
        <span className="field-help"> Made on this computer; the design has no image.</span>
      </figcaption>
      {card.own ? (
        use.state === 'asking' || use.state === 'sending' ? (
          <InlineConfirm label="Confirm the cover" confirmText="Upload as cover" confirmClass="primary" confirmDisabled={use.state === 'sending'}
            describedBy={noteId} onConfirm={() => void confirm()} cancelText="Cancel" onCancel={() => setUse({ state: 'idle' })}>
            <span id={noteId}>Upload this picture to “{card.name}” as its cover image? It is uploaded in your name and will be public{card.state === 'published' ? '' : ' once the design is published'}.</span>
          </InlineConfirm>
        ) : use.state === 'done' ? (
          <p role="status" data-testid="cover-queued">{use.fileName} was added to the design's folder: it is uploaded as its cover.</p>
        ) : (
          <p>
            <button type="button" onClick={() => setUse({ state: 'asking' })}>Use as cover…</button>
            {use.state === 'failed' ? <span role="alert" className="action-reason"> {use.message}</span> : null}
          </p>
        )
      ) : null}
    </figure>
  );
}

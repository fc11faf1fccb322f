import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { ProposalModelView } from '../../../shared';
import { contract } from '../contract/contract';
import { THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH } from './picture-size';
import { drawThumbnail } from './thumbnail-drawer';

/**
 * A folder proposed as a new design, pictured by its model (read by the host from the sync folder), drawn while it is
 * shown and marked "Generated from <file>": no design exists yet to keep it with. Nothing shows when the folder holds
 * no model the window draws, or when it cannot be drawn (said once in the console).
 */
export function ProposalPicture({ itemId }: { itemId: number }) {
  const intl = useIntl();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [model, setModel] = useState<ProposalModelView | null>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    let live = true;
    void contract.request('queue.proposalModel', { id: itemId }).then((outcome) => {
      if (!live) return;
      if (outcome.ok) setModel(outcome.value);
      else console.warn(`design-sync: the model of proposal ${itemId} could not be asked for:`, outcome.problem.message);
    });
    return () => {
      live = false;
    };
  }, [itemId]);
  useEffect(() => {
    const target = canvas.current;
    if (!model || !target) return;
    const abort = new AbortController();
    void (async () => {
      // Made in the thumbnail worker (fetched, read, drawn and encoded there), then shown on the page's canvas.
      const drawn = await drawThumbnail(model.type, { url: model.modelUrl, maxBytes: Number.MAX_SAFE_INTEGER }, abort.signal);
      if (!('picture' in drawn)) return;
      const bitmap = await createImageBitmap(drawn.picture);
      try {
        if (abort.signal.aborted) return;
        const context = target.getContext('2d');
        if (!context) throw new Error('The page gave no canvas to draw the picture on.');
        context.drawImage(bitmap, 0, 0, target.width, target.height);
      } finally {
        bitmap.close();
      }
      setDrawn(true);
    })().catch((error: unknown) => {
      if (!abort.signal.aborted) console.warn(`design-sync: no picture of ${model.fileName} could be drawn:`, error);
    });
    return () => abort.abort();
  }, [model]);
  if (!model) return null;
  const values = { known: 'yes', file: model.fileName };
  return (
    <figure className="proposal-picture generated-cover" data-testid="proposal-picture" data-drawn={drawn ? 'true' : 'false'}>
      <canvas ref={canvas} width={THUMBNAIL_WIDTH} height={THUMBNAIL_HEIGHT} role="img" aria-label={intl.formatMessage({ id: 'thumbnails.proposalLabel' }, { file: model.fileName })} />
      <figcaption className="generated-mark" data-testid="generated-mark">{intl.formatMessage({ id: 'thumbnails.generatedFrom' }, values)}</figcaption>
    </figure>
  );
}

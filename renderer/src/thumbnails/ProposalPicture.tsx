import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import type { ProposalModelView } from '../../../shared';
import { contract } from '../contract/contract';
import { THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH } from './picture-size';

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
      const response = await fetch(model.modelUrl, { signal: abort.signal });
      if (!response.ok) throw new Error(`the window's host answered ${response.status} for ${model.modelUrl}`);
      const bytes = await response.arrayBuffer();
      const { drawThumbnailOn } = await import('./render-thumbnail');
      await drawThumbnailOn(target, model.type, bytes, abort.signal);
      if (!abort.signal.aborted) setDrawn(true);
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

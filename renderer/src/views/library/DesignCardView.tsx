import type { DesignCard } from '../../../../shared';
import { designHref } from '../../stores/navigation-store';
import { useKept } from '../../stores/kept-store';
import { ActionsMenu } from '../mine/ActionsMenu';
import { CoverPicture } from '../../thumbnails/CoverPicture';

/**
 * A design's card: thumbnail (loaded lazily, from the file cache), name, author, license; rule 2 shown where it
 * applies. In the library's grid, its link carries its place (`index`) for the arrow keys.
 */
export function DesignCardView({ card, index }: { card: DesignCard; index?: number }) {
  return (
    <article className="card" data-testid="design-card" aria-label={card.name}>
      <CoverPicture card={card} className="thumb" />
      <h3 className="card-name"><a href={designHref(card.id)} data-design-id={card.id} data-index={index}>{card.name}</a></h3>
      <p className="card-author">{card.author.screenName ? `by ${card.author.screenName}` : 'author unknown'}</p>
      <p className="card-meta">
        {card.license ? <span className="license" title={card.license.meaning}>{card.license.title}</span> : null}
        {card.state && card.state !== 'published' ? <span className="draft">{card.state === 'draft' ? 'Draft' : card.state}</span> : null}
        {card.keptOffline ? <span className="kept-badge" data-testid="kept-badge">Kept offline</span> : null}
      </p>
      <KeepMenu card={card} />
      {card.attribution.unavailable ? <p className="attribution-missing">Attribution unavailable: the author is not known yet.</p> : null}
    </article>
  );
}

/** The card's menu: keep the design offline (all its files downloaded, never evicted), or stop keeping it. */
function KeepMenu({ card }: { card: DesignCard }) {
  const keep = useKept((store) => store.keep);
  const release = useKept((store) => store.release);
  const action = card.keptOffline
    ? { label: 'Stop keeping offline', onSelect: () => void release(card.id) }
    : { label: 'Keep offline', onSelect: () => void keep(card.id) };
  return <div className="card-menu"><ActionsMenu label={`More for “${card.name}”`} text="More" actions={[action]} /></div>;
}

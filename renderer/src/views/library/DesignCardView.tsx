import { FormattedMessage, useIntl } from 'react-intl';
import type { DesignCard } from '../../../../shared';
import { designHref } from '../../stores/navigation-store';
import { useKept } from '../../stores/kept-store';
import { ActionsMenu } from '../mine/ActionsMenu';
import { CoverPicture } from '../../thumbnails/CoverPicture';
import { licenseMeaning, licenseTitle } from '../design/license-words';

/**
 * A design's card: thumbnail (loaded lazily, from the file cache), name, author, license; rule 2 shown where it
 * applies. In the library's grid, its link carries its place (`index`) for the arrow keys.
 */
export function DesignCardView({ card, index }: { card: DesignCard; index?: number }) {
  const intl = useIntl();
  return (
    <article className="card" data-testid="design-card" aria-label={card.name}>
      <CoverPicture card={card} className="thumb" />
      <h3 className="card-name"><a href={designHref(card.id)} data-design-id={card.id} data-index={index}>{card.name}</a></h3>
      <p className="card-author">
        {card.author.screenName
          ? <FormattedMessage id="library.card.by" values={{ name: card.author.screenName }} />
          : <FormattedMessage id="library.card.authorUnknown" />}
      </p>
      <p className="card-meta">
        {card.license ? <span className="license" title={licenseMeaning(intl, card.license)}>{licenseTitle(intl, card.license)}</span> : null}
        {card.state && card.state !== 'published' ? <span className="draft"><FormattedMessage id="library.card.state" values={{ state: card.state }} /></span> : null}
        {card.keptOffline ? <span className="kept-badge" data-testid="kept-badge"><FormattedMessage id="library.card.kept" /></span> : null}
      </p>
      <KeepMenu card={card} />
      {card.attribution.unavailable ? <p className="attribution-missing"><FormattedMessage id="library.card.attributionUnavailable" /></p> : null}
    </article>
  );
}

/** The card's menu: keep the design offline (all its files downloaded, never evicted), or stop keeping it. */
function KeepMenu({ card }: { card: DesignCard }) {
  const intl = useIntl();
  const keep = useKept((store) => store.keep);
  const release = useKept((store) => store.release);
  const action = card.keptOffline
    ? { label: intl.formatMessage({ id: 'library.card.release' }), onSelect: () => void release(card.id) }
    : { label: intl.formatMessage({ id: 'library.card.keep' }), onSelect: () => void keep(card.id) };
  // Its name holds its visible word whatever the language (a button's name starts with what it shows).
  const more = intl.formatMessage({ id: 'library.card.more' });
  return (
    <div className="card-menu">
      <ActionsMenu label={intl.formatMessage({ id: 'library.card.moreLabel' }, { more, name: card.name })} text={more} actions={[action]} />
    </div>
  );
}

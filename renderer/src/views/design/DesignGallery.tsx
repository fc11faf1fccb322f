import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ImageView } from '../../../../shared';

/** The large rendition of the image chosen, and the others as thumbnails to choose from. */
export function DesignGallery({ images, name }: { images: ImageView[]; name: string }) {
  const intl = useIntl();
  const [chosen, setChosen] = useState(0);
  if (images.length === 0) return <div className="gallery gallery-empty"><FormattedMessage id="design.gallery.none" /></div>;
  const current = images[Math.min(chosen, images.length - 1)]!;
  return (
    <div className="gallery">
      <img className="gallery-main" src={current.largeUrl} alt={intl.formatMessage({ id: 'design.gallery.imageAlt' }, { design: name, image: current.name })} />
      {images.length > 1 ? (
        <ul className="gallery-thumbs" aria-label={intl.formatMessage({ id: 'design.gallery.thumbsLabel' })}>
          {images.map((image, index) => (
            <li key={image.id}>
              <button type="button" aria-pressed={index === chosen} onClick={() => setChosen(index)} aria-label={intl.formatMessage({ id: 'design.gallery.show' }, { image: image.name })}>
                <img src={image.thumbnailUrl} alt="" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

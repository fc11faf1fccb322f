import { useState } from 'react';
import type { ImageView } from '../../../../shared';

/** The large rendition of the image chosen, and the others as thumbnails to choose from. */
export function DesignGallery({ images, name }: { images: ImageView[]; name: string }) {
  const [chosen, setChosen] = useState(0);
  if (images.length === 0) return <div className="gallery gallery-empty">No images</div>;
  const current = images[Math.min(chosen, images.length - 1)]!;
  return (
    <div className="gallery">
      <img className="gallery-main" src={current.largeUrl} alt={`${name}: ${current.name}`} />
      {images.length > 1 ? (
        <ul className="gallery-thumbs" aria-label="Images">
          {images.map((image, index) => (
            <li key={image.id}>
              <button type="button" aria-pressed={index === chosen} onClick={() => setChosen(index)} aria-label={`Show ${image.name}`}>
                <img src={image.thumbnailUrl} alt="" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

import { useEffect, useRef } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import type { DesignCard } from '../../../shared';
import { requestThumbnail } from './thumbnail-maker';

/** What each watched cover does when it comes on screen or leaves it. */
const watchers = new Map<Element, (visible: boolean) => void>();
let observer: IntersectionObserver | null = null;

/**
 * Calls `changed` when `element` comes on screen or leaves it, until the answer is called: one observer for every
 * cover (a grid of a hundred cards brought back by a keystroke starts no hundred observers).
 */
function watchOnScreen(element: Element, changed: (visible: boolean) => void): () => void {
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) watchers.get(entry.target)?.(entry.isIntersecting);
  });
  watchers.set(element, changed);
  observer.observe(element);
  return () => {
    watchers.delete(element);
    observer?.unobserve(element);
  };
}

/** The values of the words that mark a picture made here from a design's model: its file's name, when known. */
export const generatedValues = (card: Pick<DesignCard, 'thumbnailModel'>) => ({
  known: card.thumbnailModel ? 'yes' : 'no',
  file: card.thumbnailModel?.fileName ?? '',
});

/** What marks a picture made here from a design's model (it is no image of the design): "Generated from cube.stl". */
export const generatedWords = (intl: IntlShape, card: Pick<DesignCard, 'thumbnailModel'>) =>
  intl.formatMessage({ id: 'thumbnails.generatedFrom' }, generatedValues(card));

/**
 * A design's cover as its card shows it: its image; or, when it has none, the picture made here from its first model,
 * marked "Generated from <file>"; or the blank. A card without a picture whose model can be drawn asks for one once it
 * is on screen (drawn off-screen when the window is idle, one design at a time: thumbnail-maker.ts).
 */
export function CoverPicture({ card, className, width, height }: { card: DesignCard; className: string; width?: number; height?: number }) {
  const intl = useIntl();
  const blank = useRef<HTMLDivElement>(null);
  const wanted = !card.thumbnailUrl && card.thumbnailModel !== null;
  useEffect(() => {
    const element = blank.current;
    if (!wanted || !element) return;
    if (typeof IntersectionObserver !== 'function') return requestThumbnail(card);
    // Wanted while on screen: a card scrolled past before its turn is not drawn.
    let release: (() => void) | null = null;
    const stop = watchOnScreen(element, (visible) => {
      if (visible && !release) release = requestThumbnail(card);
      else if (!visible && release) {
        release();
        release = null;
      }
    });
    return () => {
      stop();
      release?.();
    };
  }, [wanted, card]);
  if (!card.thumbnailUrl) return <div ref={blank} className={`${className} thumb-none`} aria-hidden="true" />;
  if (!card.thumbnailGenerated) return <img className={className} src={card.thumbnailUrl} alt="" loading="lazy" decoding="async" width={width} height={height} />;
  const words = generatedWords(intl, card);
  // The frame takes the cover's place and size; the picture fills it, the mark over its corner.
  return (
    <div className={`${className} generated-cover`} data-testid="generated-cover">
      <img src={card.thumbnailUrl} alt="" loading="lazy" decoding="async" width={width} height={height} />
      <span className="generated-mark" data-testid="generated-mark" title={intl.formatMessage({ id: 'thumbnails.generatedTitle' }, generatedValues(card))}>{words}</span>
    </div>
  );
}

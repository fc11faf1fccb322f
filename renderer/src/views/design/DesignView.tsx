import { useEffect, useId, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { windowWords } from '../problem-words';
import { ViewProblem } from '../shell/ViewProblem';
import { useAvailability } from '../use-availability';
import { useDesign } from '../../stores/design-store';
import { authorHref } from '../../stores/navigation-store';
import { DesignDropZone } from '../drops/DesignDropZone';
import { DesignDocuments } from './DesignDocuments';
import { DesignGallery } from './DesignGallery';
import { GeneratedCover } from './GeneratedCover';
import { DesignLicense } from './DesignLicense';
import { KeepOfflineControl } from './KeepOfflineControl';
import { descriptionRepeatsExcerpt } from '../../../../shared/text/description-text';
import { DesignDescription } from './DesignDescription';
import { ModelPreview } from './ModelPreview';

/** One design in full: gallery, who made it and under what license (with attribution), description, files. */
export function DesignView({ id }: { id: number }) {
  const { detail, problem, notice, load, openPage } = useDesign();
  const opening = useAvailability().can('open-page');
  const openingNote = opening.enabled ? opening.note : opening.reason;
  const noteId = useId();
  // The model shown in 3D, beside the gallery (what it looks like), though asked for from the file list.
  const [previewingId, setPreviewingId] = useState<number | null>(null);
  useEffect(() => void load(id), [id, load]);
  if (problem) return <ViewProblem className="design" problem={problem} />;
  if (!detail || detail.card.id !== id) return <section className="design"><p className="empty" role="status"><FormattedMessage id="design.loading" /></p></section>;
  const { card } = detail;
  const authorId = detail.author?.id ?? card.author.id;
  const previewing = detail.documents.find((document) => document.id === previewingId && document.previewUrl) ?? null;
  const documents = <DesignDocuments documents={detail.documents} onPreview={(document) => setPreviewingId(document.id)} />;
  return (
    <article className="design" aria-labelledby="design-title">
      <p><a href="#/"><FormattedMessage id="design.backToLibrary" /></a></p>
      <header className="design-header">
        <div>
          <h2 id="design-title">{card.name}</h2>
          <p className="design-author">
            {detail.author ? (
              <FormattedMessage id={detail.author.realName ? 'design.author.byWithRealName' : 'design.author.by'}
                values={{
                  name: detail.author.screenName, realName: detail.author.realName,
                  link: (chunks) => <a href={authorHref(detail.author!.id)}><strong>{chunks}</strong></a>,
                }} />
            ) : card.author.screenName && card.author.id !== null ? (
              <FormattedMessage id="design.author.by" values={{ name: card.author.screenName, link: (chunks) => <a href={authorHref(card.author.id!)}>{chunks}</a> }} />
            ) : <FormattedMessage id="design.author.unknown" />}
          </p>
          {authorId !== null ? <p className="more-by-author"><a href={authorHref(authorId)}><FormattedMessage id="design.author.more" /></a></p> : null}
        </div>
        <div className="design-open">
          <button type="button" className="primary" disabled={!opening.enabled} aria-describedby={openingNote ? noteId : undefined}
            onClick={() => void openPage()}><FormattedMessage id="design.openOnService" /></button>
          {openingNote ? <p id={noteId} className="action-reason" data-testid="action-reason">{openingNote}</p> : null}
        </div>
      </header>
      {/* The engine's own words (the service's, when it answered), as it said them. */}
      {notice ? <p className="banner" role="status">{windowWords(notice)}</p> : null}
      {/* Two columns where the window is wide enough (styles.css), one below: what it looks like, then what it is. */}
      <div className="design-columns">
        <div className="design-media">
          {detail.images.length > 0 ? <DesignGallery images={detail.images} name={card.name} /> : <GeneratedCover card={card} />}
          {previewing ? <ModelPreview key={previewing.id} document={previewing} onClose={() => setPreviewingId(null)} onCached={() => void load(id)} /> : null}
          {/* An excerpt the description opens with is shown once, as the description's first words. */}
          {card.excerpt && !descriptionRepeatsExcerpt(detail.descriptionHtml, card.excerpt) ? <p className="design-excerpt">{card.excerpt}</p> : null}
          <DesignDescription description={detail.descriptionHtml} />
          {detail.tags.length > 0 ? <p className="design-tags">{detail.tags.map((tag) => <span key={tag} className="tag">{tag}</span>)}</p> : null}
        </div>
        <div className="design-facts">
          <DesignLicense card={card} basedOn={detail.basedOn} />
          <KeepOfflineControl detail={detail} />
          {card.own ? (
            <DesignDropZone designId={card.id} designName={card.name}>
              {documents}
            </DesignDropZone>
          ) : documents}
        </div>
      </div>
    </article>
  );
}

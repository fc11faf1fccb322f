import { useEffect, useId } from 'react';
import { windowWords } from '../problem-words';
import { ViewProblem } from '../shell/ViewProblem';
import { useAvailability } from '../use-availability';
import { useDesign } from '../../stores/design-store';
import { authorHref } from '../../stores/navigation-store';
import { DesignDropZone } from '../drops/DesignDropZone';
import { DesignDocuments } from './DesignDocuments';
import { DesignGallery } from './DesignGallery';
import { DesignLicense } from './DesignLicense';
import { sanitizeDescription } from './sanitize-description';

/** One design in full: gallery, who made it and under what license (with attribution), description, files. */
export function DesignView({ id }: { id: number }) {
  const { detail, problem, notice, load, openPage } = useDesign();
  const opening = useAvailability().can('open-page');
  const openingNote = opening.enabled ? opening.note : opening.reason;
  const noteId = useId();
  useEffect(() => void load(id), [id, load]);
  if (problem) return <ViewProblem className="design" problem={problem} />;
  if (!detail || detail.card.id !== id) return <section className="design"><p className="empty" role="status">Loading the design…</p></section>;
  const { card } = detail;
  return (
    <article className="design" aria-labelledby="design-title">
      <p><a href="#/">← Library</a></p>
      <header className="design-header">
        <div>
          <h2 id="design-title">{card.name}</h2>
          <p className="design-author">
            {detail.author ? <>by <a href={authorHref(detail.author.id)}><strong>{detail.author.screenName}</strong></a>{detail.author.realName ? ` (${detail.author.realName})` : ''}</>
              : card.author.screenName && card.author.id !== null ? <>by <a href={authorHref(card.author.id)}>{card.author.screenName}</a></> : 'author unknown'}
          </p>
        </div>
        <div className="design-open">
          <button type="button" className="primary" disabled={!opening.enabled} aria-describedby={openingNote ? noteId : undefined}
            onClick={() => void openPage()}>Open on the service</button>
          {openingNote ? <p id={noteId} className="action-reason" data-testid="action-reason">{openingNote}</p> : null}
        </div>
      </header>
      {notice ? <p className="banner" role="status">{windowWords(notice)}</p> : null}
      <DesignGallery images={detail.images} name={card.name} />
      <DesignLicense card={card} basedOn={detail.basedOn} />
      {card.excerpt ? <p className="design-excerpt">{card.excerpt}</p> : null}
      {/* The service's HTML, sanitized: no script, no handlers, no remote content. */}
      <div className="design-description" dangerouslySetInnerHTML={{ __html: sanitizeDescription(detail.descriptionHtml) }} />
      {detail.tags.length > 0 ? <p className="design-tags">{detail.tags.map((tag) => <span key={tag} className="tag">{tag}</span>)}</p> : null}
      {card.own ? (
        <DesignDropZone designId={card.id} designName={card.name}>
          <DesignDocuments documents={detail.documents} onChanged={() => void load(id)} />
        </DesignDropZone>
      ) : <DesignDocuments documents={detail.documents} onChanged={() => void load(id)} />}
    </article>
  );
}

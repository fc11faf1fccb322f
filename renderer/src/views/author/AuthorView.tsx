import { useEffect } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ViewProblem } from '../shell/ViewProblem';
import { useAuthor } from '../../stores/author-store';
import { DesignCardView } from '../library/DesignCardView';
import { useReturnPlace } from '../return-place';

/** An author: avatar, name, where they are, their skills, and their designs (from the service, or the cache offline). */
export function AuthorView({ id }: { id: number }) {
  const intl = useIntl();
  const { page, problem, load } = useAuthor();
  useEffect(() => void load(id), [id, load]);
  const loaded = !problem && page?.author.id === id;
  const returnPlace = useReturnPlace(`author:${id}`, loaded);
  if (problem) return <ViewProblem className="author" problem={problem} />;
  if (!page || page.author.id !== id) return <section className="author"><p className="empty" role="status"><FormattedMessage id="author.loading" /></p></section>;
  const { author, designs } = page;
  return (
    <article className="author" aria-labelledby="author-title" {...returnPlace}>
      <p><a href="#/"><FormattedMessage id="author.backToLibrary" /></a></p>
      <header className="author-header">
        {author.avatarUrl ? <img className="avatar" src={author.avatarUrl} alt="" /> : <div className="avatar" aria-hidden="true" />}
        <div>
          <h2 id="author-title">{author.screenName}</h2>
          {author.realName ? <p className="author-real-name">{author.realName}</p> : null}
          {author.location ? <p className="author-location">{author.location}</p> : null}
          {author.skills.length > 0 ? <p className="design-tags">{author.skills.map((skill) => <span key={skill} className="tag">{skill}</span>)}</p> : null}
        </div>
      </header>
      {page.fromService ? null : <p className="banner" role="status"><FormattedMessage id="author.offline" values={{ name: author.screenName }} /></p>}
      <h3><FormattedMessage id="author.designCount" values={{ count: designs.length }} /></h3>
      <ul className="author-designs" aria-label={intl.formatMessage({ id: 'author.designsLabel' }, { name: author.screenName })}>
        {designs.map((card) => <li key={card.id}><DesignCardView card={card} /></li>)}
      </ul>
    </article>
  );
}

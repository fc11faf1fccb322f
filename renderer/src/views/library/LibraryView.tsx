import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import { firstPageAskedBeforeRender, useLibrary } from '../../stores/library-store';
import { ProblemBanner } from '../shell/ProblemBanner';
import { DesignGrid } from './DesignGrid';
import { LibraryEmpty } from './LibraryEmpty';
import { LibraryToolbar } from './LibraryToolbar';
import { noteLibraryLeft } from './library-return';

/** Every cached design: search as you type, a license filter, a sort, and a grid that only renders what is visible. */
export function LibraryView() {
  const total = useLibrary((store) => store.total);
  // None among the newest matches counted, but more to count: not "nothing matches" yet.
  const counting = useLibrary((store) => store.total === 0 && store.totalIsLowerBound);
  const problem = useLibrary((store) => store.problem);
  const pullProblem = useLibrary((store) => store.pullProblem);
  const shownQuery = useLibrary((store) => store.shownQuery);
  useEffect(() => {
    // Coming back, the cards are still current (the store follows the engine's changes meanwhile): the grid shows
    // them at once, where it was, rather than reloading.
    const { total: known, problem: failed } = useLibrary.getState();
    if (!firstPageAskedBeforeRender() && (known === null || failed !== null)) useLibrary.getState().refresh();
    return noteLibraryLeft;
  }, []);
  return (
    <section className="library" aria-labelledby="library-title" data-shown-query={shownQuery ?? undefined}>
      <h2 id="library-title" className="visually-hidden"><FormattedMessage id="library.title" /></h2>
      <LibraryToolbar />
      <ProblemBanner problem={problem} />
      <ProblemBanner problem={pullProblem} onDismiss={useLibrary.getState().dismissPullProblem} />
      {total === null ? <p className="empty" role="status"><FormattedMessage id="library.loading" /></p>
        : counting ? <p className="empty" role="status"><FormattedMessage id="library.counting" /></p>
          : total === 0 ? <LibraryEmpty /> : <DesignGrid total={total} />}
    </section>
  );
}

import { useEffect } from 'react';
import { FormattedMessage } from 'react-intl';
import { useQueue } from '../../stores/queue-store';
import { useSync } from '../../stores/sync-store';
import { ProblemBanner } from '../shell/ProblemBanner';
import { ActivityList } from './ActivityList';
import { ContentPolicy } from './ContentPolicy';
import { NeverSentPanel } from './NeverSentPanel';
import { QueueList } from './QueueList';
import { SyncFolderPanel } from './SyncFolderPanel';
import { StartAtLoginQuestion } from '../start-at-login/StartAtLoginQuestion';
import { WaitingForYou } from './WaitingForYou';

/** Sync as a whole: its state and folder, what waits for the person, what is being sent, and what happened. */
export function SyncView() {
  const sync = useSync((store) => store.sync);
  const { queue, problem, load } = useQueue();
  useEffect(() => {
    void load();
    void useSync.getState().load();
  }, [load]);
  return (
    <section className="sync-view" aria-labelledby="sync-title">
      <h2 id="sync-title"><FormattedMessage id="sync.title" /></h2>
      <ProblemBanner problem={problem} />
      {sync ? <SyncFolderPanel sync={sync} /> : null}
      {sync?.folder ? <StartAtLoginQuestion /> : null}
      {sync && !sync.contentPolicyAccepted && sync.folder ? <ContentPolicy /> : null}
      {queue ? (
        <>
          <WaitingForYou items={queue.items.filter((item) => item.state === 'attention')} />
          <QueueList items={queue.items.filter((item) => item.state !== 'attention')} />
          {sync ? <NeverSentPanel heldBack={sync.heldBack} folderChosen={sync.folder !== null} /> : null}
          <ActivityList activity={queue.activity} />
        </>
      ) : <p className="empty" role="status"><FormattedMessage id="sync.loadingQueue" /></p>}
    </section>
  );
}

import type { ActivityView } from '../../../../shared';
import { windowWords } from '../problem-words';

/** What sync did, newest first, in words: file, what happened, when. */
export function ActivityList({ activity }: { activity: ActivityView[] }) {
  return (
    <section className="panel" aria-labelledby="activity-title">
      <h3 id="activity-title">Recent activity</h3>
      {activity.length === 0 ? <p className="empty-inline">Nothing yet.</p> : (
        <ol className="activity-list">
          {activity.map((entry) => (
            <li key={entry.id} className={`activity-${entry.level}`}>
              <time dateTime={entry.at}>{new Date(entry.at).toLocaleTimeString()}</time> {windowWords(entry.message)}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

import { FormattedMessage, useIntl } from 'react-intl';
import type { ActivityView } from '../../../../shared';
import { engineLine } from '../engine-line';

/** What sync did, newest first, in words: file, what happened, when (the time as the window's language writes it). */
export function ActivityList({ activity }: { activity: ActivityView[] }) {
  const intl = useIntl();
  return (
    <section className="panel" aria-labelledby="activity-title">
      <h3 id="activity-title"><FormattedMessage id="sync.activity.title" /></h3>
      {activity.length === 0 ? <p className="empty-inline"><FormattedMessage id="sync.activity.empty" /></p> : (
        <ol className="activity-list">
          {activity.map((entry) => (
            <li key={entry.id} className={`activity-${entry.level}`}>
              <time dateTime={entry.at}>{intl.formatTime(Date.parse(entry.at), { timeStyle: 'medium' })}</time> {engineLine(intl, entry.words, entry.message)}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

import { FormattedMessage } from 'react-intl';
import { ProblemBanner } from './ProblemBanner';

/** A view that could not be shown: the way back, and what went wrong in words (said once, without codes). */
export function ViewProblem({ className, problem }: { className: string; problem: string }) {
  return (
    <section className={className}>
      <p><a href="#/"><FormattedMessage id="shell.viewProblem.back" /></a></p>
      <ProblemBanner problem={problem} />
    </section>
  );
}

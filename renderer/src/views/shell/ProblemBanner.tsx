import { FormattedMessage } from 'react-intl';
import { windowWords } from '../problem-words';

/**
 * What went wrong, in words; one the person caused by acting stays until they dismiss it or act again. Said in the
 * window's words whatever view shows it: once, without raw codes or stack lines (problem-words.ts).
 */
export function ProblemBanner({ problem, onDismiss }: { problem: string | null; onDismiss?: () => void }) {
  const words = windowWords(problem);
  if (!words) return null;
  return (
    <p className="banner banner-error" role="alert">
      {words}
      {onDismiss ? <button type="button" className="banner-dismiss" onClick={onDismiss}><FormattedMessage id="shell.problem.dismiss" /></button> : null}
    </p>
  );
}

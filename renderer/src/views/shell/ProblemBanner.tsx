/** What went wrong, in words; one the person caused by acting stays until they dismiss it or act again. */
export function ProblemBanner({ problem, onDismiss }: { problem: string | null; onDismiss?: () => void }) {
  if (!problem) return null;
  return (
    <p className="banner banner-error" role="alert">
      {problem}
      {onDismiss ? <button type="button" className="banner-dismiss" onClick={onDismiss}>Dismiss</button> : null}
    </p>
  );
}

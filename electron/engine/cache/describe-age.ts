/** "just now", "3 minutes ago", "2 hours ago", "5 days ago": how old a cached copy is, for people. */
export function describeAge(ageMs: number): string {
  const seconds = Math.max(0, Math.round(ageMs / 1000));
  if (seconds < 45) return 'just now';
  const units: [number, string][] = [[60 * 60 * 24 * 365, 'year'], [60 * 60 * 24 * 30, 'month'], [60 * 60 * 24, 'day'], [60 * 60, 'hour'], [60, 'minute']];
  for (const [size, name] of units) {
    if (seconds >= size * 0.95 || name === 'minute') {
      const count = Math.max(1, Math.round(seconds / size));
      return `${count} ${name}${count === 1 ? '' : 's'} ago`;
    }
  }
  return 'just now';
}

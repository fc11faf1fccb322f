/** "just now", "5 minutes ago", "3 days ago": how old an ISO time is, in words. */
export function describeAge(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  const steps: [number, string][] = [[60, 'minute'], [3600, 'hour'], [86_400, 'day']];
  let value = Math.round(seconds / 60);
  let unit = 'minute';
  for (const [size, name] of steps) {
    if (seconds >= size) {
      value = Math.round(seconds / size);
      unit = name;
    }
  }
  return `${value} ${unit}${value === 1 ? '' : 's'} ago`;
}

export type Route = { view: 'library' } | { view: 'mine' } | { view: 'sync' } | { view: 'settings' } | { view: 'design'; id: number } | { view: 'author'; id: number };

/** Routes live in the address's hash (#/designs/12): the browser's back and forward work, and nothing is loaded from a server. */
export function routeOf(hash: string): Route {
  if (hash === '#/mine') return { view: 'mine' };
  if (hash === '#/sync') return { view: 'sync' };
  if (hash === '#/settings') return { view: 'settings' };
  const match = /^#\/(designs|authors)\/(\d{1,15})$/.exec(hash);
  if (!match) return { view: 'library' };
  return { view: match[1] === 'designs' ? 'design' : 'author', id: Number(match[2]) };
}

export const designHref = (id: number) => `#/designs/${id}`;
export const authorHref = (id: number) => `#/authors/${id}`;

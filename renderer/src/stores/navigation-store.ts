import { create } from 'zustand';

export type Route = { view: 'library' } | { view: 'design'; id: number };

/** Routes live in the address's hash (#/designs/12): the browser's back and forward work, and nothing is loaded from a server. */
export function routeOf(hash: string): Route {
  const design = /^#\/designs\/(\d{1,15})$/.exec(hash);
  return design ? { view: 'design', id: Number(design[1]) } : { view: 'library' };
}

export const designHref = (id: number) => `#/designs/${id}`;

export const useNavigation = create<{ route: Route }>(() => ({ route: routeOf(location.hash) }));

addEventListener('hashchange', () => useNavigation.setState({ route: routeOf(location.hash) }));

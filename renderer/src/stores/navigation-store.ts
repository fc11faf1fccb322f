import { create } from 'zustand';
import { routeOf, type Route } from './routes';

export { authorHref, designHref, routeOf, type Route } from './routes';

// The window host draws the library's first frame with no address to read (renderer/src/first-frame/): the library.
const inBrowser = typeof location !== 'undefined';

export const useNavigation = create<{ route: Route }>(() => ({ route: routeOf(inBrowser ? location.hash : '') }));

if (inBrowser) addEventListener('hashchange', () => useNavigation.setState({ route: routeOf(location.hash) }));

import { useCallback, useSyncExternalStore } from 'react';
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';

type BoundStore<T> = StoreApi<T> & (<U = T>(selector?: (state: T) => U) => U);

/**
 * zustand's `create` for the first-frame build (in place of 'zustand'): a component rendered on the server reads the
 * store's current state. zustand's own hook reads the state the store was created with there (its server snapshot is
 * `getInitialState`), which would draw the library before its first page came.
 */
export function create<T>(initializer: StateCreator<T, [], []>): BoundStore<T> {
  const api = createStore(initializer);
  function useBoundStore<U>(selector: (state: T) => U = (state) => state as unknown as U): U {
    const snapshot = useCallback(() => selector(api.getState()), [selector]);
    return useSyncExternalStore(api.subscribe, snapshot, snapshot);
  }
  return Object.assign(useBoundStore, api) as BoundStore<T>;
}

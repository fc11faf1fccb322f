/**
 * The contract's request names alone, without their schemas: what the Electron preload needs to refuse anything else,
 * without carrying zod into every window. requests.ts checks at compile time that this list and REQUEST_INPUTS agree.
 */
export const CONTRACT_REQUEST_NAMES = [
  'account.get',
  'account.signIn',
  'account.cancelSignIn',
  'account.signOut',
  'library.page',
  'library.licenseCounts',
  'library.searchService',
  'design.get',
  'design.openPage',
  'author.get',
  'own.list',
  'own.create',
  'own.update',
  'own.publish',
  'own.delete',
  'sync.status',
  'sync.chooseFolder',
  'sync.start',
  'sync.stop',
  'sync.acceptContentPolicy',
  'queue.list',
  'queue.retry',
  'queue.cancel',
  'queue.pause',
  'queue.resume',
  'queue.confirmDelete',
  'queue.resolveConflict',
  'queue.confirmDesign',
  'catalogue.pull',
  'settings.get',
  'settings.update',
] as const;

export type ContractRequestName = (typeof CONTRACT_REQUEST_NAMES)[number];

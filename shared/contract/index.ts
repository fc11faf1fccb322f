export * from './problems';
export * from './views';
export * from './requests';
export * from './events';
export * from './protocol';
export * from './preload-api';
export * from './request-names';
export * from './preloaded-answers';

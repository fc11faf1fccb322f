export * from './resources';
export * from './licenses/licenses';
export * from './pagination/pagination';
export * from './validation/limits';
export * from './validation/field-errors';
export * from './validation/file-types';
export * from './validation/design-input';
export * from './problems/service-problem';

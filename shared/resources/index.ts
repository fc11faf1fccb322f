export * from './timestamp';
export * from './file-url';
export * from './tag';
export * from './user';
export * from './design';
export * from './image';
export * from './document';

import './messages';

export * from './auth';
export * from './common';
export * from './messages';
export * from './permissions';
export * from './roles';

import './messages';

export * from './auth';
export * from './common';
export * from './compact-locations';
export * from './customer-rows';
export * from './customers';
export * from './inventory';
export * from './locations';
export * from './map';
export * from './messages';
export * from './permissions';
export * from './reports';
export * from './roles';
export * from './shared-locations';
export * from './sharing';
export * from './users';
export * from './vehicle-types';

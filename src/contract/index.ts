// Every module here but messages.ts only declares (constants, schemas, functions): the build
// takes them as free of side effects (vite.config.ts, pureContract), so that a page carries
// only the ones it uses. A module that must act as it loads joins messages.ts's exception.
import './messages';

export * from './alerts';
export * from './assignments';
export * from './attachments';
export * from './audit';
export * from './auth';
export * from './common';
export * from './compact-locations';
export * from './customer-rows';
export * from './customers';
export * from './dashboard';
export * from './devices';
export * from './documents';
export * from './driver-page';
export * from './driving';
export * from './geofences';
export * from './inventory';
export * from './jornada';
export * from './locations';
export * from './maintenance';
export * from './map';
export * from './messages';
export * from './payments';
export * from './permissions';
export * from './push';
export * from './refuels';
export * from './report-files';
export * from './reports';
export * from './roles';
export * from './shared-locations';
export * from './sharing';
export * from './two-factor';
export * from './users';
export * from './vehicle-types';

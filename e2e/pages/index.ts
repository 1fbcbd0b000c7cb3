/**
 * Page objects of the journeys, one file a screen: what a person sees there, found by role and
 * accessible name, and what they do there. The specs import them all from here.
 */
export * from './account';
export * from './alerts';
export * from './audit';
export * from './controls';
export * from './dashboard';
export * from './demo';
export * from './driver';
export * from './fleet-map';
export * from './geofences';
export * from './login';
export * from './management';
export * from './password';
export * from './payments';
export * from './reports';
export * from './resources';
export * from './session';
export * from './shared-link';
export * from './shell';
export * from './temporary-links';
export * from './vehicle';

/** Drivers assigned to vehicles for a period ('designação'), on the owned-records calls. */
import { AssignmentPageSchema, AssignmentSchema } from '../contract';
import { resource } from './resources';

export const assignmentsApi = resource(
  'registros/driver-assignments',
  AssignmentSchema,
  AssignmentPageSchema,
);

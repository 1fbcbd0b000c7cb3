/**
 * Wire shapes the contract declares only as schemas (the pages and a few answers), as types
 * for the tests' `call<T>()`: derived from src/contract/, so a test typed against them reads
 * the API's own shapes.
 */
import type * as v from 'valibot';
import type {
  Command,
  DriverPageSchema,
  FleetPageSchema,
  MessageSchema,
  ReportRequestPageSchema,
  SimCardPageSchema,
  TrackerPageSchema,
  TrackerTypePageSchema,
  VehiclePageSchema,
} from '../../src/contract';

export type VehiclePage = v.InferOutput<typeof VehiclePageSchema>;
export type DriverPage = v.InferOutput<typeof DriverPageSchema>;
export type SimCardPage = v.InferOutput<typeof SimCardPageSchema>;
export type TrackerTypePage = v.InferOutput<typeof TrackerTypePageSchema>;
export type TrackerPage = v.InferOutput<typeof TrackerPageSchema>;
export type FleetPage = v.InferOutput<typeof FleetPageSchema>;
export type ReportRequestPage = v.InferOutput<typeof ReportRequestPageSchema>;

/** `{ message }`: what many actions answer on success. */
export type Message = v.InferOutput<typeof MessageSchema>;

/** GET registros/commands?vehicleId= (server/routes/commands.ts). */
export interface CommandHistory {
  commands: Command[];
}

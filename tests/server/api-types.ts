/**
 * Wire shapes the contract declares only as schemas (the pages and a few answers), as types
 * for the tests' `call<T>()`: derived from src/contract/, so a test typed against them reads
 * the API's own shapes.
 */
import type * as v from 'valibot';
import type {
  AutoReportRulePageSchema,
  CommandListSchema,
  DashboardClientsSchema,
  DashboardTrackersSchema,
  DashboardUsersSchema,
  DriverPageSchema,
  MessageSchema,
  PositionsReportSchema,
  ReportRequestPageSchema,
  SharedVehicleSchema,
  TrackerPageSchema,
  TrackerTypePageSchema,
  UserPageSchema,
  VehiclePageSchema,
} from '../../src/contract';

export type VehiclePage = v.InferOutput<typeof VehiclePageSchema>;
export type DriverPage = v.InferOutput<typeof DriverPageSchema>;
export type TrackerTypePage = v.InferOutput<typeof TrackerTypePageSchema>;
export type TrackerPage = v.InferOutput<typeof TrackerPageSchema>;
export type UserPage = v.InferOutput<typeof UserPageSchema>;
export type AutoReportRulePage = v.InferOutput<typeof AutoReportRulePageSchema>;
export type DashboardClients = v.InferOutput<typeof DashboardClientsSchema>;
export type DashboardUsers = v.InferOutput<typeof DashboardUsersSchema>;
export type DashboardTrackers = v.InferOutput<typeof DashboardTrackersSchema>;
export type ReportRequestPage = v.InferOutput<typeof ReportRequestPageSchema>;
/** A vehicle as a visitor's list and a temporary link show it. */
export type SharedVehicle = v.InferOutput<typeof SharedVehicleSchema>;

/** `{ message }`: what many actions answer on success. */
export type Message = v.InferOutput<typeof MessageSchema>;

/** GET registros/reports/positions/{vehicleId}: the vehicle, the period and its positions. */
export type PositionsReport = v.InferOutput<typeof PositionsReportSchema>;

/** GET registros/commands?vehicleId= (server/routes/commands.ts). */
export type CommandHistory = v.InferOutput<typeof CommandListSchema>;

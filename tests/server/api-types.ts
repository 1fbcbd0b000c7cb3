/**
 * Wire shapes the contract declares only as schemas (the pages and a few answers), as types
 * for the tests' `call<T>()` and `jsonOf<T>()`: derived from src/contract/, so a test typed
 * against them reads the API's own shapes. The last two are answers to machines (flespi, Asaas)
 * that the server builds inline and the contract does not hold.
 */
import type * as v from 'valibot';
import type {
  AutoReportRulePageSchema,
  CommandListSchema,
  DashboardClientsSchema,
  DashboardTrackersSchema,
  DashboardUsersSchema,
  DriverPageSchema,
  FileQueuedSchema,
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

/** A report file to be e-mailed (202): the message and the id of its request. */
export type FileQueued = v.InferOutput<typeof FileQueuedSchema>;

/** `{ message }`: what many actions answer on success. */
export type Message = v.InferOutput<typeof MessageSchema>;

/** GET registros/reports/positions/{vehicleId}: the vehicle, the period and its positions. */
export type PositionsReport = v.InferOutput<typeof PositionsReportSchema>;

/** GET registros/commands?vehicleId= (server/commands/routes.ts). */
export type CommandHistory = v.InferOutput<typeof CommandListSchema>;

/** POST tech-integracao/v1/flespi/stream (server/ingest/flespi.ts): what a batch came to. */
export interface FlespiStreamResult {
  received: number;
  stored: number;
  unknownDevices: number;
  skipped: number;
  rejected: number;
  /** Fixes whose time another fix already held: not stored. */
  conflicts: number;
  /** Of those stored, reports without a valid position (telemetry at the last place). */
  withoutGps: number;
}

/** POST registros/payments/webhook (server/payments/routes.ts): Asaas's event, taken. */
export interface WebhookResult {
  received: boolean;
  applied: boolean;
}

/** The dashboard's calls (SPEC §7 `registros/dashboard/*`), for a customer's subtree. */
import * as v from 'valibot';
import {
  DashboardActivitySchema,
  DashboardAlertsSchema,
  DashboardClientsSchema,
  DashboardDistanceSchema,
  DashboardTrackersSchema,
  DashboardUpkeepSchema,
  DashboardUsersSchema,
} from '../contract';
import { api } from './client';

const get = async <T extends v.GenericSchema>(path: string, schema: T, clientId: string | null) =>
  v.parse(
    schema,
    await api
      .get(`registros/dashboard/${path}`, { searchParams: clientId ? { clientId } : {} })
      .json(),
  );

export async function dashboard(clientId: string | null) {
  const [clients, users, trackers, activity, alerts, distance, upkeep] = await Promise.all([
    get('clients', DashboardClientsSchema, clientId),
    get('users', DashboardUsersSchema, clientId),
    get('tracker', DashboardTrackersSchema, clientId),
    get('trackers/activity-by-time-range', DashboardActivitySchema, clientId),
    get('alerts', DashboardAlertsSchema, clientId),
    get('distance', DashboardDistanceSchema, clientId),
    get('upkeep', DashboardUpkeepSchema, clientId),
  ]);
  return { clients, users, trackers, activity, alerts, distance, upkeep };
}
export type Dashboard = Awaited<ReturnType<typeof dashboard>>;

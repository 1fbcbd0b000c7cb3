/**
 * The keys of the query cache (src/api/query.ts), in one place so that a write can
 * invalidate every screen that shows what it changed: a key is a path from the broad
 * (['customers']) to the narrow (['customers', 'one', id]); invalidating a prefix reaches all
 * below it.
 */
import type { AlertListParams } from './alerts';
import type { CustomerListParams } from './customers';
import type { ListParams } from './resources';
import type { UserListParams } from './users';

export const keys = {
  customers: ['customers'] as const,
  customerOptions: ['customers', 'options'] as const,
  customerList: (params: CustomerListParams) => ['customers', 'list', params] as const,
  customer: (id: string) => ['customers', 'one', id] as const,

  users: ['users'] as const,
  userList: (params: Omit<UserListParams, 'clientId'> & { clientId: string | null }) =>
    ['users', 'list', params] as const,
  user: (id: string) => ['users', 'one', id] as const,
  visitorVehicles: (userId: string) => ['users', 'visitor-vehicles', userId] as const,

  /** Every call of one inventory resource (its API path). */
  resource: (path: string) => ['resource', path] as const,
  resourceList: (path: string, params: ListParams) => ['resource', path, 'list', params] as const,
  resourceItem: (path: string, id: string) => ['resource', path, 'one', id] as const,

  /** The files attached to a service record or a document. */
  attachments: (owner: string, id: string) => ['attachments', owner, id] as const,
  vehicleCommands: (vehicleId: string) => ['commands', vehicleId] as const,
  lastLocation: (vehicleId: string) => ['last-location', vehicleId] as const,
  temporaryLinks: ['temporary-links'] as const,
  driverLinks: (driverId: string) => ['driver-links', driverId] as const,
  driverReports: ['driver-reports'] as const,
  deviceSettings: ['device-settings'] as const,
  unknownDevices: ['unknown-devices'] as const,
  unknownDeviceList: (params: object) => ['unknown-devices', params] as const,
  /** Reports: a kind, what it is about and the period; the list of report requests. */
  report: (kind: string, ids: string[], beginAt: string, endAt: string) =>
    ['reports', kind, ids.join(','), beginAt, endAt] as const,
  reportRequests: (params: object) => ['reports', 'requests', params] as const,

  /** Every alert read (lists, the badge's count, a vehicle's latest): invalidated together. */
  alerts: ['alerts'] as const,
  alertList: (params: AlertListParams) => ['alerts', 'list', params] as const,
  openAlertCount: ['alerts', 'open-count'] as const,
  vehicleAlerts: (vehicleId: string) => ['alerts', 'vehicle', vehicleId] as const,
  /** Acknowledgements made offline, held by the service worker until they are sent. */
  pendingAcks: ['alerts', 'pending-acks'] as const,
  pushDevices: ['push-devices'] as const,
  associations: (geofenceId: string) => ['geofence-associations', geofenceId] as const,
  sharedLink: (token: string) => ['temp-access', token] as const,
  sharedLocations: (token: string) => ['temp-access', token, 'locations'] as const,

  // The dashboard, charges and the support contact.
  dashboard: (clientId: string | null) => ['dashboard', clientId] as const,
  charges: ['charges'] as const,
  chargeList: (params: object) => ['charges', 'list', params] as const,
  invoice: (id: string) => ['charges', 'invoice', id] as const,
  paymentSettings: ['payments', 'settings'] as const,
  support: ['support'] as const,
};

/**
 * The tenancy matrix: users of every role in one child company try every route the server
 * has on the resources of its sibling company, and must get "not found" or "forbidden",
 * never data. A route added to the server without a line here fails the last test.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/accounts/auth/passwords';
import { findUserByEmail, setUserPassword } from '../../server/accounts/queries/users';
import { insertAlerts } from '../../server/alerts/queries/alert-engine';
import { auditEvents, paymentCharges } from '../../server/schema';
import {
  type Alert,
  type Association,
  type AttachmentUpload,
  type AuditPage,
  type Customer,
  type CustomerRowPage,
  DRIVING_WEIGHTS,
  type DriverLinkCreated,
  type DriverSession,
  type ReportRequest,
  ROLES,
  type Role,
  type Vehicle,
} from '../../src/contract';
import { as, backends, demoClients, present, type TestServer, useServer } from './harness';

interface Target {
  client: string;
  user: string;
  vehicle: string;
  driver: string;
  simcard: string;
  tracker: string;
  fleet: string;
  image: string;
  link: string;
  report: string;
  geofence: string;
  association: string;
  rule: string;
  alert: string;
  /** An automated report rule of the company. */
  autoRule: string;
  plan: string;
  service: string;
  document: string;
  /** A PDF attached to the service record. */
  attachment: string;
  /** The driver's personal link, and a problem the driver reported through it. */
  driverLink: string;
  driverReport: string;
  refuel: string;
  expense: string;
  /** The driver's assignment to the vehicle, from a month ago on. */
  assignment: string;
  /** The audit line of the vehicle's creation. */
  audit: string;
}
type Attempt = (other: Target, own: Target) => { path: string; body?: unknown };
type Case =
  | { exempt: string }
  | { attempt: Attempt; list?: (body: unknown, other: Target) => void };

/** Each company has one charge kept from Asaas (written directly: payments are not set up here). */
const chargeIdOf = (clientId: string) => `pay_${clientId.slice(0, 8)}`;

const someCustomer = (motherCompanyId: string) => ({
  personKind: 'juridical',
  name: 'Intrusa',
  clientCNPJ: '45.997.418/0001-53',
  motherCompanyId,
});

/** Every route of the API. Exempt routes carry no customer data or only the caller's own. */
const ROUTES: Record<string, Case> = {
  'GET /health': { exempt: 'saúde do servidor, sem dados' },
  'POST /tech-integracao/v1/flespi/stream': {
    exempt:
      'dispositivos, não usuários: segredo compartilhado; o rastreador é achado pelo identificador',
  },
  'GET /registros/openapi.json': { exempt: 'documentação pública' },
  'POST /registros/auth/login': { exempt: 'público: entrada' },
  'POST /registros/auth/refresh': { exempt: 'público: o refresh token identifica a sessão' },
  'GET /registros/auth/validation': { exempt: 'só os dados do próprio usuário' },
  'POST /registros/auth/activeEmail': { exempt: 'público: token de uso único' },
  'POST /registros/auth/confirmEmail': {
    exempt: 'público: token de uso único do link enviado ao novo e-mail',
  },
  'POST /registros/auth/forgetPassword': { exempt: 'público, mesma resposta para qualquer e-mail' },
  'POST /registros/auth/logout': {
    exempt: 'público: o refresh token identifica a sessão; mesma resposta para qualquer token',
  },
  'POST /registros/auth/logout-all': { exempt: 'encerra só as sessões do próprio usuário' },
  'PUT /registros/auth/password': { exempt: 'troca só a senha do próprio usuário' },
  'GET /registros/auth/2fa': { exempt: 'estado da verificação em duas etapas do próprio usuário' },
  'POST /registros/auth/2fa/setup': { exempt: 'segredo novo só do próprio usuário' },
  'POST /registros/auth/2fa/enable': { exempt: 'ativa só a do próprio usuário' },
  'POST /registros/auth/2fa/disable': { exempt: 'desativa só a do próprio usuário' },
  'POST /registros/auth/2fa/recovery-codes': { exempt: 'códigos só do próprio usuário' },
  'POST /registros/auth/2fa/verify': {
    exempt: 'público: o desafio de uso único identifica o usuário que acertou a senha',
  },
  'PUT /registros/push/subscribe-token': { exempt: 'token do próprio navegador' },
  'PUT /registros/push/unsubscribe-token': { exempt: 'remove só tokens do próprio usuário' },
  'GET /registros/push/config': {
    exempt: 'público: a chave VAPID e a configuração web do Firebase',
  },
  'GET /registros/push/devices': { exempt: 'só os dispositivos do próprio usuário' },
  'PATCH /registros/push/devices/:id': {
    exempt: 'só um dispositivo do próprio usuário (outro responde 404)',
  },
  'GET /registros/autocomplete/cep/:cep': { exempt: 'endereço público, sem dados de cliente' },
  'GET /registros/map/config': { exempt: 'público: o mapa base configurado, sem dados de cliente' },
  'GET /registros/client': {
    attempt: () => ({ path: '/registros/client?limit=1000' }),
    list: (body, other) => {
      const ids = (body as { clients: { id: string }[] }).clients.map((c) => c.id);
      expect(ids).not.toContain(other.client);
    },
  },
  'POST /registros/client': {
    attempt: (o) => ({ path: '/registros/client', body: someCustomer(o.client) }),
  },
  'GET /registros/client/:id': { attempt: (o) => ({ path: `/registros/client/${o.client}` }) },
  'PATCH /registros/client/:id': {
    attempt: (o) => ({ path: `/registros/client/${o.client}`, body: { name: 'Invadida' } }),
  },
  'DELETE /registros/client/:id': { attempt: (o) => ({ path: `/registros/client/${o.client}` }) },
  'GET /registros/client/motherCompany/:id': {
    attempt: (o) => ({ path: `/registros/client/motherCompany/${o.client}` }),
  },
  'GET /registros/client/motherCompanyPagineted/:id': {
    attempt: (o) => ({ path: `/registros/client/motherCompanyPagineted/${o.client}` }),
  },
  'POST /registros/user': {
    attempt: (o) => ({
      path: '/registros/user',
      body: { name: 'Intruso', email: 'intruso@x.com', role: 'VISITOR', clientId: o.client },
    }),
  },
  'GET /registros/user': { attempt: (o) => ({ path: `/registros/user?clientId=${o.client}` }) },
  'GET /registros/user/:id': { attempt: (o) => ({ path: `/registros/user/${o.user}` }) },
  'PATCH /registros/user/:id': {
    attempt: (o) => ({ path: `/registros/user/${o.user}`, body: { name: 'Invadido' } }),
  },
  'DELETE /registros/user/:id': { attempt: (o) => ({ path: `/registros/user/${o.user}` }) },
  ...crud(
    '/registros/vehicle',
    'vehicle',
    (o) => ({ clientId: o.client, name: 'Intruso', plate: 'ZZZ9Z99', type: 'car' }),
    {
      list: (o) => `/registros/vehicle?clientId=${o.client}`,
      ownList: (own) => `/registros/vehicle?clientId=${own.client}&limit=1000`,
    },
  ),
  ...crud('/registros/driver', 'driver', (o) => ({
    clientId: o.client,
    completName: 'Intruso',
    cpf: '390.533.447-05',
  })),
  ...crud('/registros/simcard', 'simcard', (o) => ({
    clientId: o.client,
    iccid: '8955000000000000007',
  })),
  ...crud('/registros/tracker', 'tracker', (o) => ({
    clientId: o.client,
    identifier: 'intruso-1',
    provider: 'rastro',
  })),
  ...crud('/tech-integracao/v1/fleets', 'fleet', (o) => ({ clientId: o.client, name: 'Intrusa' })),
  ...crud('/registros/maintenance-plans', 'plan', (o) => ({
    clientId: o.client,
    name: 'Intruso',
    vehicleId: o.vehicle,
    everyDays: 30,
  })),
  ...crud('/registros/service-records', 'service', (o) => ({
    clientId: o.client,
    vehicleId: o.vehicle,
    date: '2026-11-01',
    planIds: [o.plan],
  })),
  ...crud('/registros/documents', 'document', (o) => ({
    clientId: o.client,
    vehicleId: o.vehicle,
    kind: 'ipva',
    expiry: '2027-01-31',
  })),
  'GET /registros/driver-links': {
    attempt: (o) => ({ path: `/registros/driver-links?driverId=${o.driver}` }),
  },
  'POST /registros/driver-links': {
    attempt: (o) => ({
      path: '/registros/driver-links',
      body: {
        driverId: o.driver,
        pin: '1234',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    }),
  },
  'POST /registros/driver-links/:id/revoke': {
    attempt: (o) => ({ path: `/registros/driver-links/${o.driverLink}/revoke` }),
  },
  'GET /registros/driver-reports': {
    attempt: () => ({ path: '/registros/driver-reports' }),
    list: (body, other) => {
      expect((body as { id: string }[]).map((r) => r.id)).not.toContain(other.driverReport);
    },
  },
  'GET /registros/driver-reports/:id/photo': {
    attempt: (o) => ({ path: `/registros/driver-reports/${o.driverReport}/photo` }),
  },
  'POST /registros/driver-reports/:id/resolve': {
    attempt: (o) => ({ path: `/registros/driver-reports/${o.driverReport}/resolve` }),
  },
  'POST /registros/driver-page/session': {
    exempt: 'público: o token do link e o PIN identificam o motorista',
  },
  'POST /registros/driver-page/me/sign-out': {
    exempt: 'sessão do motorista: encerra só a própria sessão',
  },
  'POST /registros/driver-page/me/marks': {
    exempt: 'sessão do motorista: marca só a jornada do próprio motorista',
  },
  'GET /registros/driver-page/me/today': {
    exempt: 'sessão do motorista: lê só o dia do próprio motorista',
  },
  'POST /registros/driver-page/me/problems': {
    exempt: 'sessão do motorista: grava só em nome do próprio motorista',
  },
  // Another company's driver on another company's vehicle, from now on (its own are a month old).
  ...crud('/registros/driver-assignments', 'assignment', (o) => ({
    clientId: o.client,
    driverId: o.driver,
    vehicleId: o.vehicle,
    start: new Date().toISOString(),
  })),
  ...crud('/registros/refuels', 'refuel', (o) => ({
    clientId: o.client,
    vehicleId: o.vehicle,
    at: '2026-11-01T12:00:00.000Z',
    liters: 10,
    pricePerLiter: 6,
    odometerKm: 1000,
  })),
  'POST /registros/refuels-import': {
    attempt: (o) => ({
      path: '/registros/refuels-import',
      body: { clientId: o.client, content: '01/11/2026 07:30;ZZZ9Z99;;10;6;1;P;não' },
    }),
  },
  'GET /registros/fleet-costs': {
    attempt: (o) => ({
      path: `/registros/fleet-costs?clientId=${o.client}&from=2026-10&to=2026-11`,
    }),
  },
  'GET /registros/fleet-costs/file': {
    attempt: (o) => ({
      path: `/registros/fleet-costs/file?clientId=${o.client}&from=2026-10&to=2026-11&format=pdf`,
    }),
  },
  'GET /registros/refuels-consumption': {
    attempt: (o) => ({ path: `/registros/refuels-consumption?clientId=${o.client}` }),
  },
  ...crud('/registros/expenses', 'expense', (o) => ({
    clientId: o.client,
    vehicleId: o.vehicle,
    date: '2026-11-01',
    category: 'toll',
    amount: 12.5,
  })),
  'GET /registros/documents-expiring': {
    attempt: (o) => ({ path: `/registros/documents-expiring?clientId=${o.client}` }),
  },
  'POST /registros/jornada/drivers/:driverId/marks': {
    attempt: (o) => ({
      path: `/registros/jornada/drivers/${o.driver}/marks`,
      body: {
        id: '7d3c0b6e-2f44-4a4c-9d51-0c1f5a7e9b21',
        kind: 'journey_start',
        at: new Date().toISOString(),
      },
    }),
  },
  'GET /registros/jornada/drivers/:driverId/marks': {
    attempt: (o) => ({
      path: `/registros/jornada/drivers/${o.driver}/marks?from=2026-11-01&to=2026-11-02`,
    }),
  },
  'POST /registros/jornada/drivers/:driverId/corrections': {
    attempt: (o) => ({
      path: `/registros/jornada/drivers/${o.driver}/corrections`,
      body: {
        kind: 'rest',
        start: '2026-11-01T10:00:00Z',
        end: '2026-11-01T11:00:00Z',
        reason: 'Intrusa',
      },
    }),
  },
  'GET /registros/jornada/drivers/:driverId/corrections': {
    attempt: (o) => ({
      path: `/registros/jornada/drivers/${o.driver}/corrections?from=2026-11-01&to=2026-11-02`,
    }),
  },
  'GET /registros/jornada/drivers/:driverId/days': {
    attempt: (o) => ({
      path: `/registros/jornada/drivers/${o.driver}/days?from=2026-11-01&to=2026-11-02`,
    }),
  },
  'GET /registros/jornada/drivers/:driverId/file': {
    attempt: (o) => ({
      path: `/registros/jornada/drivers/${o.driver}/file?from=2026-11-01&to=2026-11-02&format=pdf`,
    }),
  },
  'GET /registros/jornada/settings': {
    attempt: (o) => ({ path: `/registros/jornada/settings?clientId=${o.client}` }),
  },
  'PUT /registros/jornada/settings': {
    attempt: (o) => ({
      path: '/registros/jornada/settings',
      body: { clientId: o.client, regime: 'passageiros' },
    }),
  },
  'GET /registros/maintenance-due': {
    attempt: (o) => ({ path: `/registros/maintenance-due?clientId=${o.client}` }),
  },
  'GET /registros/commands': {
    attempt: (o) => ({ path: `/registros/commands?vehicleId=${o.vehicle}` }),
  },
  'PUT /registros/commands/block': {
    attempt: (o) => ({ path: `/registros/commands/block?vehicleId=${o.vehicle}` }),
  },
  'PUT /registros/commands/unblock': {
    attempt: (o) => ({ path: `/registros/commands/unblock?vehicleId=${o.vehicle}` }),
  },
  'PUT /registros/commands/:integration/suspend': {
    attempt: (o) => ({ path: `/registros/commands/getrak/suspend?vehicleId=${o.vehicle}` }),
  },
  'PUT /registro/commands/enableDevice': {
    attempt: (o) => ({ path: '/registro/commands/enableDevice', body: { trackerId: o.tracker } }),
  },
  'PUT /registro/commands/disableDevice': {
    attempt: (o) => ({ path: '/registro/commands/disableDevice', body: { trackerId: o.tracker } }),
  },
  'PUT /registros/tracker/activate/:id': {
    attempt: (o) => ({ path: `/registros/tracker/activate/${o.tracker}` }),
  },
  'PUT /tech-integracao/v1/register/getrak/device': {
    attempt: (o) => ({ path: `/tech-integracao/v1/register/getrak/device?id=${o.tracker}` }),
  },
  'PUT /tech-integracao/v1/register/:integration/vehicle': {
    attempt: (o) => ({ path: `/tech-integracao/v1/register/getrak/vehicle?id=${o.vehicle}` }),
  },
  'POST /registros/upload-images/vehicle/:id': {
    attempt: (o) => ({ path: `/registros/upload-images/vehicle/${o.vehicle}`, body: {} }),
  },
  'GET /registros/attachments/:owner/:id': {
    attempt: (o) => ({ path: `/registros/attachments/service-record/${o.service}` }),
  },
  'POST /registros/attachments/:owner/:id': {
    attempt: (o) => ({ path: `/registros/attachments/document/${o.document}`, body: {} }),
  },
  'GET /registros/attachments/:id': {
    attempt: (o) => ({ path: `/registros/attachments/${o.attachment}` }),
  },
  'DELETE /registros/attachments/:id': {
    attempt: (o) => ({ path: `/registros/attachments/${o.attachment}` }),
  },
  'GET /registros/vehicle-images/:id': {
    attempt: (o) => ({ path: `/registros/vehicle-images/${o.image}` }),
  },
  'DELETE /registros/vehicle-images/:id': {
    attempt: (o) => ({ path: `/registros/vehicle-images/${o.image}` }),
  },
  'GET /registros/eligo/consultarPlaca': {
    exempt: 'consulta externa de placa, sem dados de cliente',
  },
  'GET /registros/visitor-role/get-vehiculos-by-visitor/:id': {
    attempt: (o) => ({ path: `/registros/visitor-role/get-vehiculos-by-visitor/${o.user}` }),
  },
  'POST /registros/visitor-role/add-vehicle/:id': {
    attempt: (o, own) => ({
      path: `/registros/visitor-role/add-vehicle/${o.user}`,
      body: { vehicle: own.vehicle },
    }),
  },
  'DELETE /registros/visitor-role/:id/vehicles/:vehicleId': {
    attempt: (o) => ({ path: `/registros/visitor-role/${o.user}/vehicles/${o.vehicle}` }),
  },
  'POST /registros/temporaryUser/create_temporary_link': {
    attempt: (o) => ({
      path: '/registros/temporaryUser/create_temporary_link',
      body: { name: 'Intruso', vehicleIds: [o.vehicle] },
    }),
  },
  'GET /registros/temporaryUser/linkedTemporaryUsers': {
    attempt: () => ({ path: '/registros/temporaryUser/linkedTemporaryUsers' }),
    list: (body, other) => {
      expect((body as { id: string }[]).map((link) => link.id)).not.toContain(other.link);
    },
  },
  'GET /registros/temporaryUser/vehicles-by-temporary-user/:id': {
    attempt: (o) => ({ path: `/registros/temporaryUser/vehicles-by-temporary-user/${o.link}` }),
  },
  'POST /registros/temporaryUser/add-vehicle-to-temporary-user/:id': {
    attempt: (o, own) => ({
      path: `/registros/temporaryUser/add-vehicle-to-temporary-user/${o.link}`,
      body: { vehicleId: own.vehicle },
    }),
  },
  'PUT /registros/temporaryUser/update-vehicle-to-temporary-user/:id': {
    attempt: (o, own) => ({
      path: `/registros/temporaryUser/update-vehicle-to-temporary-user/${o.link}`,
      body: { vehicleIds: [own.vehicle] },
    }),
  },
  'GET /registros/temporaryUser/:id': {
    attempt: (o) => ({ path: `/registros/temporaryUser/${o.link}` }),
  },
  'PUT /registros/temporaryUser/:id': {
    attempt: (o) => ({ path: `/registros/temporaryUser/${o.link}`, body: { name: 'Invadido' } }),
  },
  'DELETE /registros/temporaryUser/:id': {
    attempt: (o) => ({ path: `/registros/temporaryUser/${o.link}` }),
  },
  'GET /registros/temp-access/:token': {
    exempt: 'público: o token do link é a própria credencial, só leitura',
  },
  'GET /registros/temp-access/:token/locations': {
    exempt:
      'público: o token é a credencial; só os veículos do link, do cliente que o criou, até expirar ou ser revogado (tests/server/sharing.test.ts)',
  },
  'GET /registros/real-time/lastLocation': {
    attempt: (o) => ({ path: `/registros/real-time/lastLocation?clientId=${o.client}` }),
  },
  'GET /registros/real-time/stream': {
    attempt: (o) => ({ path: `/registros/real-time/stream?clientId=${o.client}` }),
  },
  ...reportRoutes(),
  ...reportFileRoutes(),
  ...crud(
    '/registros/geofence',
    'geofence',
    (o) => ({
      clientId: o.client,
      name: 'Intrusa',
      geometry: { type: 'Circle', center: [-34.9, -8.05], radius: 100 },
    }),
    { patch: { name: 'Invadida' } },
  ),
  'GET /registros/geofence/vehicle-association': {
    attempt: (o) => ({ path: `/registros/geofence/vehicle-association?geofenceId=${o.geofence}` }),
  },
  'POST /registros/geofence/vehicle-association': {
    attempt: (o, own) => ({
      path: '/registros/geofence/vehicle-association',
      body: {
        geofenceId: o.geofence,
        vehicleAssociations: [{ vehicleId: own.vehicle, restrictionType: 'ALWAYS_INSIDE' }],
      },
    }),
  },
  'DELETE /registros/geofence/vehicle-association/:id': {
    attempt: (o) => ({ path: `/registros/geofence/vehicle-association/${o.association}` }),
  },
  ...crud(
    '/registros/alert-rules',
    'rule',
    (o) => ({ clientId: o.client, name: 'Intrusa', type: 'IGNITION_ON' }),
    { patch: { name: 'Invadida' } },
  ),
  'GET /registros/audit': {
    attempt: () => ({ path: '/registros/audit?pageSize=200' }),
    list: (body, o) => {
      const { events } = body as AuditPage;
      expect(events.length).toBeGreaterThan(0);
      expect(events.filter((e) => e.clientId === o.client || e.entityId === o.vehicle)).toEqual([]);
    },
  },
  'GET /registros/audit/download': {
    attempt: (o) => ({ path: `/registros/audit/download?clientId=${o.client}` }),
  },
  'GET /registros/audit/:id': {
    attempt: (o) => ({ path: `/registros/audit/${o.audit}` }),
  },
  'GET /registros/dashboard/clients': {
    attempt: (o) => ({ path: `/registros/dashboard/clients?clientId=${o.client}` }),
  },
  'GET /registros/dashboard/upkeep': {
    attempt: (o) => ({ path: `/registros/dashboard/upkeep?clientId=${o.client}` }),
  },
  'GET /registros/dashboard/users': {
    attempt: (o) => ({ path: `/registros/dashboard/users?clientId=${o.client}` }),
  },
  'GET /registros/dashboard/tracker': {
    attempt: (o) => ({ path: `/registros/dashboard/tracker?clientId=${o.client}` }),
  },
  'GET /registros/dashboard/trackers/activity-by-time-range': {
    attempt: (o) => ({
      path: `/registros/dashboard/trackers/activity-by-time-range?clientId=${o.client}`,
    }),
  },
  'GET /registros/dashboard/alerts': {
    attempt: (o) => ({ path: `/registros/dashboard/alerts?clientId=${o.client}` }),
  },
  'GET /registros/dashboard/distance': {
    attempt: (o) => ({ path: `/registros/dashboard/distance?clientId=${o.client}` }),
  },
  'GET /registros/payments/individual-charges': {
    attempt: (o) => ({ path: `/registros/payments/individual-charges?clientId=${o.client}` }),
  },
  'GET /registros/invoices/:id': {
    attempt: (o) => ({ path: `/registros/invoices/${chargeIdOf(o.client)}` }),
  },
  'GET /registros/payments/settings': { exempt: 'só diz se os pagamentos estão configurados' },
  'POST /registros/payments/webhook': {
    exempt: 'o Asaas, não usuários: token compartilhado no cabeçalho asaas-access-token',
  },
  'GET /registros/support': { exempt: 'contato do provedor, o mesmo para todos' },
  'GET /registros/alerts': {
    attempt: () => ({ path: '/registros/alerts?limit=1000' }),
    list: (body, other) => {
      const ids = (body as { items: { id: string }[] }).items.map((a) => a.id);
      expect(ids).not.toContain(other.alert);
    },
  },
  'GET /registros/alerts/:id': { attempt: (o) => ({ path: `/registros/alerts/${o.alert}` }) },
  'PUT /registros/alerts/ack': {
    attempt: (o) => ({ path: '/registros/alerts/ack', body: { alertIds: [o.alert] } }),
  },
  'PUT /registros/alerts/ack-all': {
    // Acknowledges the caller's own alerts only: checked after the walk (acknowledgedBy).
    attempt: () => ({ path: '/registros/alerts/ack-all' }),
    list: (body) => expect(typeof (body as { count: unknown }).count).toBe('number'),
  },
  'GET /registros/tracker-types': { exempt: 'catálogo de modelos comum a todos os clientes' },
  'GET /registros/tracker-types/:id': { exempt: 'catálogo de modelos comum a todos os clientes' },
  'POST /registros/tracker-types': {
    exempt: 'catálogo comum; só administradores alteram (tests/server/inventory.test.ts)',
  },
  'PATCH /registros/tracker-types/:id': {
    exempt: 'catálogo comum; só administradores alteram (tests/server/inventory.test.ts)',
  },
  'DELETE /registros/tracker-types/:id': {
    exempt: 'catálogo comum; só administradores alteram (tests/server/inventory.test.ts)',
  },
  'GET /registros/device-settings': {
    exempt: 'servidor e portas dos ouvintes, os mesmos para todos os clientes',
  },
  'GET /registros/unknown-devices': {
    exempt: 'aparelhos sem rastreador, de cliente nenhum; só administradores (device-trust)',
  },
  'DELETE /registros/unknown-devices/:protocol/:identifier': {
    exempt: 'aparelhos sem rastreador, de cliente nenhum; só administradores (device-trust)',
  },
};

const PERIOD = 'beginAt=2026-03-10T03:00:00.000Z&endAt=2026-03-11T03:00:00.000Z';

/** Report files, their links and automated reports, on the other company's records. */
function reportFileRoutes(): Record<string, Case> {
  const base = '/registros/reports';
  const one = (kind: string): Case => ({
    attempt: (o) => ({ path: `${base}/download/${kind}/${o.vehicle}?${PERIOD}` }),
  });
  const many = (kind: string): Case => ({
    attempt: (o, own) => ({
      path: `${base}/v2/download/${kind}?vehicleIds=${own.vehicle},${o.vehicle}&${PERIOD}`,
    }),
  });
  const auto = '/registros/crud-reports-processor';
  return {
    [`GET ${base}/download/positions/:vehicleId`]: one('positions'),
    [`GET ${base}/download/trips/:vehicleId`]: one('trips'),
    [`GET ${base}/download/history/:vehicleId`]: one('history'),
    [`GET ${base}/download/distance/:vehicleId`]: one('distance'),
    [`GET ${base}/v2/download/distance`]: many('distance'),
    [`GET ${base}/v2/download/trips`]: many('trips'),
    [`GET ${base}/v2/download/positions`]: many('positions'),
    [`GET ${base}/v2/download/history`]: many('history'),
    [`GET ${base}/v2/download/light_final_report`]: many('light_final_report'),
    [`GET ${base}/v2/download/drivers`]: {
      attempt: (o) => ({ path: `${base}/v2/download/drivers?driverIds=${o.driver}&${PERIOD}` }),
    },
    [`GET ${base}/v2/download/driving`]: {
      attempt: (o) => ({
        path: `${base}/v2/download/driving?month=2026-03&clientId=${o.client}&format=excel`,
      }),
    },
    [`GET ${base}/v2/geofence/download`]: {
      attempt: (o, own) => ({
        path: `${base}/v2/geofence/download?vehicleIds=${own.vehicle},${o.vehicle}&${PERIOD}`,
      }),
    },
    'GET /registros/report-files/:token': {
      exempt: 'público: o token aleatório do link enviado por e-mail é a credencial',
    },
    [`GET ${auto}`]: {
      attempt: () => ({ path: `${auto}?limit=100` }),
      list: (body, other) => {
        const ids = (body as { rules: { id: string }[] }).rules.map((r) => r.id);
        expect(ids).not.toContain(other.autoRule);
      },
    },
    [`POST ${auto}`]: {
      attempt: (o) => ({
        path: auto,
        body: {
          name: 'Intrusa',
          reportType: 'TRIPS',
          periodicity: 'DAILY',
          vehicleIds: [o.vehicle],
          emailDelivery: 'intrusa@rastro.demo',
        },
      }),
    },
    [`GET ${auto}/:id`]: { attempt: (o) => ({ path: `${auto}/${o.autoRule}` }) },
    [`PUT ${auto}/:id`]: {
      attempt: (o) => ({ path: `${auto}/${o.autoRule}`, body: { active: false } }),
    },
    [`DELETE ${auto}/:id`]: { attempt: (o) => ({ path: `${auto}/${o.autoRule}` }) },
    [`POST ${auto}/:id/send`]: { attempt: (o) => ({ path: `${auto}/${o.autoRule}/send` }) },
  };
}

/** The report calls, tried on the other company's vehicle, driver and records. */
function reportRoutes(): Record<string, Case> {
  const base = '/registros/reports';
  const one = (path: string): Case => ({
    attempt: (o) => ({ path: `${base}/${path}/${o.vehicle}?${PERIOD}` }),
  });
  return {
    [`GET ${base}/history/:vehicleId`]: one('history'),
    [`GET ${base}/positions/:vehicleId`]: one('positions'),
    [`GET ${base}/trips/:vehicleId`]: one('trips'),
    [`GET ${base}/distance/:vehicleId`]: one('distance'),
    [`GET ${base}/light_final_report/:vehicleId`]: one('light_final_report'),
    [`GET ${base}/geofence/:vehicleId`]: one('geofence'),
    [`GET ${base}/by-fence/:geofenceId`]: {
      attempt: (o) => ({ path: `${base}/by-fence/${o.geofence}?${PERIOD}` }),
    },
    [`GET ${base}/v2/trips`]: {
      attempt: (o, own) => ({
        path: `${base}/v2/trips?vehicleIds=${own.vehicle},${o.vehicle}&${PERIOD}`,
      }),
    },
    [`GET ${base}/v2/distance`]: {
      attempt: (o) => ({ path: `${base}/v2/distance?vehicleIds=${o.vehicle}&${PERIOD}` }),
    },
    [`GET ${base}/v2/light_final_report`]: {
      attempt: (o) => ({ path: `${base}/v2/light_final_report?vehicleIds=${o.vehicle}&${PERIOD}` }),
    },
    [`GET ${base}/v2/drivers`]: {
      attempt: (o) => ({ path: `${base}/v2/drivers?driverIds=${o.driver}&${PERIOD}` }),
    },
    [`GET ${base}/v2/drivers/:id`]: {
      attempt: (o) => ({ path: `${base}/v2/drivers/${o.driver}?${PERIOD}` }),
    },
    [`GET ${base}/v2/driving`]: {
      attempt: (o) => ({ path: `${base}/v2/driving?month=2026-03&clientId=${o.client}` }),
    },
    [`GET ${base}/v2/driving/settings`]: {
      attempt: (o) => ({ path: `${base}/v2/driving/settings?clientId=${o.client}` }),
    },
    [`PUT ${base}/v2/driving/settings`]: {
      attempt: (o) => ({
        path: `${base}/v2/driving/settings`,
        body: { clientId: o.client, weights: DRIVING_WEIGHTS, idleMinutes: 9 },
      }),
    },
    [`GET ${base}/trip-settings/:clientId`]: {
      attempt: (o) => ({ path: `${base}/trip-settings/${o.client}` }),
    },
    [`PUT ${base}/trip-settings/:clientId`]: {
      attempt: (o) => ({ path: `${base}/trip-settings/${o.client}`, body: { minDistance: 300 } }),
    },
    [`GET ${base}`]: {
      attempt: () => ({ path: `${base}?limit=100` }),
      list: (body, other) => {
        const ids = (body as { reports: { id: string }[] }).reports.map((r) => r.id);
        expect(ids).not.toContain(other.report);
      },
    },
    [`POST ${base}`]: {
      attempt: (o) => ({
        path: base,
        body: {
          reportType: 'TRIPS',
          vehicleIds: [o.vehicle],
          beginAt: '2026-03-10T03:00:00.000Z',
          endAt: '2026-03-11T03:00:00.000Z',
        },
      }),
    },
    [`GET ${base}/:id`]: { attempt: (o) => ({ path: `${base}/${o.report}` }) },
    [`DELETE ${base}/:id`]: { attempt: (o) => ({ path: `${base}/${o.report}` }) },
  };
}

/** The five routes of a customer-owned resource, tried on the other company's record. */
function crud(
  base: string,
  key:
    | 'vehicle'
    | 'driver'
    | 'simcard'
    | 'tracker'
    | 'fleet'
    | 'geofence'
    | 'rule'
    | 'plan'
    | 'service'
    | 'document'
    | 'refuel'
    | 'expense'
    | 'assignment',
  body: (other: Target) => unknown,
  lists: {
    list?: (o: Target) => string;
    ownList?: (own: Target) => string;
    /** A valid change for this resource (default: deactivate). */
    patch?: unknown;
  } = {},
): Record<string, Case> {
  return {
    [`GET ${base}`]: {
      attempt: (o, own) => ({
        path: lists.list?.(o) ?? `${base}?limit=1000&clientId=${own.client}`,
      }),
      list: (responseBody, other) => {
        const items = Object.values(responseBody as Record<string, unknown>).find(
          Array.isArray,
        ) as { id: string }[];
        expect(items.map((item) => item.id)).not.toContain(other[key]);
      },
    },
    [`POST ${base}`]: { attempt: (o) => ({ path: base, body: body(o) }) },
    [`GET ${base}/:id`]: { attempt: (o) => ({ path: `${base}/${o[key]}` }) },
    [`PATCH ${base}/:id`]: {
      attempt: (o) => ({ path: `${base}/${o[key]}`, body: lists.patch ?? { active: false } }),
    },
    [`DELETE ${base}/:id`]: { attempt: (o) => ({ path: `${base}/${o[key]}` }) },
  };
}

const API = /^\/(registros|tech-integracao|registro)(\/|$)|^\/health$/;

function serverRoutes(s: TestServer): string[] {
  const keys = s.app.routes
    .filter((r) => r.method !== 'ALL' && API.test(r.path) && !r.path.endsWith('/*'))
    .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`);
  return [...new Set(keys)].sort();
}

/** Users of every role in both sibling companies, each with the demo password. */
async function staff(s: TestServer, north: string, south: string) {
  const admin = await as(s, 'admin@rastro.demo');
  const hash = await hashPassword('rastro-demo');
  const accounts: Record<'north' | 'south', Partial<Record<Role, string>>> = {
    north: {},
    south: {},
  };
  for (const [side, clientId] of [
    ['north', north],
    ['south', south],
  ] as const) {
    for (const role of ROLES) {
      const email = `${role.toLowerCase()}.${side}@matriz.test`;
      const res = await admin.call('POST', '/registros/user', {
        name: `${role} ${side}`,
        email,
        role,
        clientId,
      });
      expect(res.status).toBe(201);
      const user = await findUserByEmail(s.deps.database.db, email);
      if (!user) throw new Error('user missing');
      await setUserPassword(s.deps.database.db, user.id, hash);
      accounts[side][role] = email;
    }
  }
  return accounts;
}

/** One record of every kind for a company, created by the administrator. */
async function inventoryOf(
  s: TestServer,
  client: string,
  manager: string,
  plate: string,
  cpf: string,
  iccid: string,
): Promise<Target> {
  const admin = await as(s, 'admin@rastro.demo');
  const create = async (path: string, body: unknown) => {
    const res = await admin.call<{ id: string }>('POST', path, body);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(201);
    return res.body.id;
  };
  const vehicle = await create('/registros/vehicle', {
    clientId: client,
    name: `Caminhão ${plate}`,
    plate,
    type: 'truck',
  });
  const simcard = await create('/registros/simcard', { clientId: client, iccid });
  const form = new FormData();
  form.append('files', new File([readFileSync('public/icons/icon-192.png')], 'foto.png'));
  await s.request(`/registros/upload-images/vehicle/${vehicle}`, {
    method: 'POST',
    body: form,
    token: admin.accessToken,
  });
  const image = present(
    (await admin.call<Vehicle>('GET', `/registros/vehicle/${vehicle}`)).body.images[0],
    'vehicle photo',
  ).id;
  const link = await create('/registros/temporaryUser/create_temporary_link', {
    name: `Link ${plate}`,
    vehicleIds: [vehicle],
  });
  // A report asked by the company's own manager (a record of that company).
  const report = await (await as(s, manager)).call<ReportRequest>('POST', '/registros/reports', {
    reportType: 'DISTANCE',
    vehicleIds: [vehicle],
    beginAt: '2026-03-10T03:00:00.000Z',
    endAt: '2026-03-11T03:00:00.000Z',
  });
  expect(report.status, JSON.stringify(report.body)).toBe(201);
  const geofence = await create('/registros/geofence', {
    clientId: client,
    name: `Cerca ${plate}`,
    geometry: { type: 'Circle', center: [-34.9, -8.05], radius: 200 },
  });
  const association = present(
    (
      await admin.call<Association[]>('POST', '/registros/geofence/vehicle-association', {
        geofenceId: geofence,
        vehicleAssociations: [{ vehicleId: vehicle, restrictionType: 'ALWAYS_INSIDE' }],
      })
    ).body[0],
    'association',
  ).id;
  const rule = await create('/registros/alert-rules', {
    clientId: client,
    name: `Regra ${plate}`,
    type: 'IGNITION_ON',
    vehicleIds: [vehicle],
  });
  const alerts = await insertAlerts(s.deps.database.db, [
    {
      clientId: client,
      vehicleId: vehicle,
      ruleId: rule,
      type: 'IGNITION_ON',
      geofenceId: null,
      latitude: -8.05,
      longitude: -34.9,
      speed: 0,
      fixTime: new Date(),
      late: false,
      dedupeKey: `matriz:${plate}`,
      details: {},
    },
  ]);
  const alert = alerts.get(`matriz:${plate}`)?.id ?? '';
  const autoRule = await create('/registros/crud-reports-processor', {
    clientId: client,
    name: `Semanal ${plate}`,
    reportType: 'TRIPS',
    periodicity: 'WEEKLY',
    vehicleIds: [vehicle],
    emailDelivery: 'gestor@rastro.demo',
  });
  const plan = await create('/registros/maintenance-plans', {
    clientId: client,
    name: `Óleo ${plate}`,
    vehicleId: vehicle,
    everyKm: 10_000,
  });
  const service = await create('/registros/service-records', {
    clientId: client,
    vehicleId: vehicle,
    date: '2026-11-01',
    planIds: [plan],
  });
  const document = await create('/registros/documents', {
    clientId: client,
    vehicleId: vehicle,
    kind: 'crlv',
    expiry: '2026-12-31',
  });
  const attached = new FormData();
  attached.append('files', new File(['%PDF-1.4\n%%EOF\n'], 'nota.pdf'));
  const uploaded = await s.request(`/registros/attachments/service-record/${service}`, {
    method: 'POST',
    body: attached,
    token: admin.accessToken,
  });
  expect(uploaded.status).toBe(201);
  const attachment = present(
    ((await uploaded.json()) as AttachmentUpload).items[0],
    'attachment',
  ).id;
  const driver = await create('/registros/driver', {
    clientId: client,
    completName: `Motorista ${plate}`,
    cpf,
  });
  const made = await (await as(s, manager)).call<DriverLinkCreated>(
    'POST',
    '/registros/driver-links',
    { driverId: driver, pin: '4321', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
  );
  const opened = await s.request('/registros/driver-page/session', {
    method: 'POST',
    json: { token: made.body.path.replace('/motorista/', ''), pin: '4321' },
  });
  const { sessionToken } = (await opened.json()) as DriverSession;
  const driverReport = randomUUID();
  const reported = await s.request('/registros/driver-page/me/problems', {
    method: 'POST',
    token: sessionToken,
    json: { id: driverReport, at: new Date().toISOString(), text: `Problema ${plate}` },
  });
  expect(reported.status).toBe(201);
  const assignment = await create('/registros/driver-assignments', {
    clientId: client,
    driverId: driver,
    vehicleId: vehicle,
    start: new Date(Date.now() - 30 * 86_400_000).toISOString(),
    end: new Date(Date.now() - 86_400_000).toISOString(),
  });
  const refuel = await create('/registros/refuels', {
    clientId: client,
    vehicleId: vehicle,
    at: '2026-11-01T12:00:00.000Z',
    liters: 40,
    pricePerLiter: 5.899,
    odometerKm: 12_000,
    fullTank: true,
  });
  const expense = await create('/registros/expenses', {
    clientId: client,
    vehicleId: vehicle,
    date: '2026-11-02',
    category: 'toll',
    amount: 9.8,
  });
  const [line] = await s.deps.database.db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(eq(auditEvents.entityId, vehicle));
  return {
    audit: present(line, 'audit line').id,
    document,
    attachment,
    refuel,
    expense,
    assignment,
    plan,
    service,
    autoRule,
    geofence,
    association,
    rule,
    alert,
    client,
    user: (await findUserByEmail(s.deps.database.db, manager))?.id ?? '',
    vehicle,
    simcard,
    image,
    link,
    report: report.body.id,
    driver,
    driverLink: made.body.link.id,
    driverReport,
    tracker: await create('/registros/tracker', {
      clientId: client,
      identifier: `trk-${plate}`,
      provider: 'rastro',
      vehicleId: vehicle,
      simCardId: simcard,
    }),
    fleet: await create('/tech-integracao/v1/fleets', {
      clientId: client,
      name: `Frota ${plate}`,
      vehicleIds: [vehicle],
    }),
  };
}

describe.each(await backends())('tenancy matrix on %s', (backend) => {
  const server = useServer(backend);

  it('keeps every role of each sibling company out of the other', async () => {
    const s = server();
    const { north, south } = await demoClients(s);
    const accounts = await staff(s, north, south);
    const targets = {
      north: await inventoryOf(
        s,
        north,
        'gestor.norte@rastro.demo',
        'NRT1A11',
        '52998224725',
        '8955100000000000014',
      ),
      south: await inventoryOf(
        s,
        south,
        'gestor.sul@rastro.demo',
        'SUL2B22',
        '11144477735',
        '8955100000000000022',
      ),
    };
    for (const clientId of [north, south])
      await s.deps.database.db.insert(paymentCharges).values({
        id: chargeIdOf(clientId),
        clientId,
        providerCustomerId: `cus_${clientId.slice(0, 8)}`,
        document: '1',
        value: 10,
        dueDate: '2026-12-01',
        billingType: 'PIX',
        providerStatus: 'PENDING',
        status: 'waitingPayment',
        createdAt: new Date(),
      });
    let tried = 0;
    for (const [side, otherSide] of [
      ['north', 'south'],
      ['south', 'north'],
    ] as const) {
      for (const role of ROLES) {
        const actor = await as(s, accounts[side][role] ?? '');
        for (const [key, test] of Object.entries(ROUTES)) {
          if ('exempt' in test) continue;
          const [method = 'GET'] = key.split(' ');
          const { path, body } = test.attempt(targets[otherSide], targets[side]);
          const res = await actor.call(method, path, body);
          const label = `${role} de ${side} → ${key}`;
          if (test.list && res.status === 200) test.list(res.body, targets[otherSide]);
          else
            expect([403, 404], `${label}: ${res.status} ${JSON.stringify(res.body)}`).toContain(
              res.status,
            );
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(100);
    // Nothing of the other company changed.
    const admin = await as(s, 'admin@rastro.demo');
    const southNow = await admin.call<Customer>('GET', `/registros/client/${south}`);
    expect(southNow.body.name).toBe('Logística Sul');
    const intruders = await admin.call<CustomerRowPage>('GET', '/registros/client?search=Intrusa');
    expect(intruders.body.total).toBe(0);
    // Each company's alert was acknowledged, if at all, by one of its own people.
    for (const side of ['north', 'south'] as const) {
      const alert = await admin.call<Alert>('GET', `/registros/alerts/${targets[side].alert}`);
      expect(alert.body.acknowledgedBy ?? `x ${side}`).toMatch(new RegExp(` ${side}$`));
    }
    // Every route times every role on both sides: on a busy machine PGlite takes over
    // the default 30 s.
  }, 120_000);

  it('covers every route the server has', () => {
    const covered = Object.keys(ROUTES).sort();
    expect(serverRoutes(server())).toEqual(covered);
  });
});

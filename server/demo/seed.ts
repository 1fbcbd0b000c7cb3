/**
 * The demo that `npm start` shows a newcomer: a mother company with two child companies and
 * one user of each role (all with the password DEMO_PASSWORD, for the demo only). It runs
 * only on an empty database, inside one transaction, so it is never applied twice.
 */
import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { Role } from '../../src/contract';
import { cpfFromBase, luhnValid } from '../../src/lib/documents';
import { totalCentsOf } from '../../src/lib/fuel';
import { reportDay } from '../../src/lib/report-period';
import { hashDevicePassword } from '../ingest/identity';
import type { Db } from '../platform/db/client';
import {
  alertRules,
  autoReportRules,
  clients,
  documents,
  driverAssignments,
  drivers,
  fleets,
  geofences,
  geofenceVehicles,
  maintenancePlans,
  refuels,
  serviceRecords,
  simCards,
  temporaryUsers,
  trackers,
  trackerTypes,
  users,
  vehicleExpenses,
  vehicles,
  visitorVehicles,
} from '../schema';
import { DEMO_RULES, demoGeofences } from './alerts';
import {
  type Company,
  DEMO_FLEET,
  demoDevicePassword,
  SHARED_VEHICLES,
  VISITOR_VEHICLES,
} from './fleet';
import { DEMO_TANKS, demoExpenses, demoRefuels } from './fuel';
import { HISTORY_GAP_MS } from './history';

export const DEMO_PASSWORD = 'rastro-demo';

/**
 * The demo provider's support contact (finance e-mail, phone, WhatsApp), shown under 'Suporte'
 * and beside the invoices while the demo runs without SUPPORT_* of its own; made-up numbers
 * of Recife, like the demo companies'.
 */
export const DEMO_SUPPORT = {
  email: 'financeiro@rastro.demo',
  phone: '(81) 3234-5678',
  whatsapp: '(81) 99876-5432',
} as const;

interface DemoUser {
  email: string;
  name: string;
  role: Role;
  company: 'mother' | 'north' | 'south';
}

export const DEMO_USERS: DemoUser[] = [
  {
    email: 'admin@rastro.demo',
    name: 'Ana Administradora',
    role: 'ADMINISTRATOR',
    company: 'mother',
  },
  { email: 'gestor@rastro.demo', name: 'Gustavo Gestor', role: 'MANAGER', company: 'mother' },
  { email: 'operador@rastro.demo', name: 'Otávio Operador', role: 'OPERATOR', company: 'mother' },
  { email: 'cliente@rastro.demo', name: 'Clara Cliente', role: 'CLIENT', company: 'mother' },
  { email: 'terceiro@rastro.demo', name: 'Tiago Terceiro', role: 'VISITOR', company: 'mother' },
  {
    email: 'gestor.norte@rastro.demo',
    name: 'Núbia Gestora Norte',
    role: 'MANAGER',
    company: 'north',
  },
  {
    email: 'operador.norte@rastro.demo',
    name: 'Nelson Operador Norte',
    role: 'OPERATOR',
    company: 'north',
  },
  {
    email: 'gestor.sul@rastro.demo',
    name: 'Sílvia Gestora Sul',
    role: 'MANAGER',
    company: 'south',
  },
  {
    email: 'operador.sul@rastro.demo',
    name: 'Sérgio Operador Sul',
    role: 'OPERATOR',
    company: 'south',
  },
];

export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(clients);
  return (row?.n ?? 0) === 0;
}

export async function seedDemo(db: Db, passwordHash: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [mother] = await tx
      .insert(clients)
      .values({
        kind: 'juridical',
        name: 'Rastro Demonstração',
        corporateName: 'Rastro Demonstração Tecnologia Ltda.',
        document: '42731985000175',
        email: 'contato@rastro.demo',
        supportEmail: 'suporte@rastro.demo',
        phone: '8132345678',
      })
      .returning({ id: clients.id });
    if (!mother) throw new Error('seed: mother company not created');
    const children = await tx
      .insert(clients)
      .values([
        {
          parentId: mother.id,
          kind: 'juridical',
          name: 'Transportes Norte',
          corporateName: 'Transportes Norte Ltda.',
          document: '58304127000184',
          email: 'contato@norte.rastro.demo',
          phone: '9132223344',
        },
        {
          parentId: mother.id,
          kind: 'juridical',
          name: 'Logística Sul',
          corporateName: 'Logística Sul S.A.',
          document: '69120534000158',
          email: 'contato@sul.rastro.demo',
          phone: '5133334455',
        },
      ])
      .returning({ id: clients.id });
    const ids = { mother: mother.id, north: children[0]?.id, south: children[1]?.id };
    await tx.insert(users).values(
      DEMO_USERS.map((u) => {
        const clientId = ids[u.company];
        if (!clientId) throw new Error('seed: child company not created');
        return {
          clientId,
          email: u.email,
          name: u.name,
          role: u.role,
          passwordHash,
          emailVerifiedAt: new Date(),
        };
      }),
    );
  });
}

/** A valid ICCID (Luhn) from its first 18 digits. */
function iccidFrom(base: string): string {
  const check = [...'0123456789'].find((d) => luhnValid(`${base}${d}`)) ?? '0';
  return `${base}${check}`;
}

const TRACKER_TYPES = [
  { manufacturer: 'Traccar', model: 'Client (Android/iOS)', protocol: 'osmand', inputs: [] },
  {
    manufacturer: 'Galileosky',
    model: '7.0 Lite',
    protocol: 'wialon_ips',
    inputs: ['DIN1', 'ignition', 'iButton'],
  },
  { manufacturer: 'Teltonika', model: 'FMB920', protocol: 'flespi', inputs: ['DIN1', 'ignition'] },
  { manufacturer: 'Suntech', model: 'ST310U', protocol: 'getrak', inputs: ['DIN1', 'DIN2'] },
  // The makers' protocols Rastro hears itself: an installer picks the model, and the form
  // shows the port and the text message to type.
  {
    manufacturer: 'Concox',
    model: 'GT06N',
    protocol: 'gt06',
    inputs: ['ACC (ignição)', 'SOS', 'Corte de combustível (relé)'],
  },
  {
    manufacturer: 'JiMi',
    model: 'JM-VL01',
    protocol: 'gt06',
    inputs: ['ACC (ignição)', 'SOS', 'Corte de combustível (relé)'],
  },
  {
    manufacturer: 'Suntech',
    model: 'ST300',
    protocol: 'suntech',
    inputs: ['Ignição', 'Entrada 1 (pânico)', 'Entrada 2', 'Saída 1 (bloqueio)'],
  },
  {
    manufacturer: 'Suntech',
    model: 'ST4310',
    protocol: 'suntech',
    inputs: ['Ignição', 'Entrada 1 (pânico)', 'Entrada 2', 'Saída 1 (bloqueio)'],
  },
  {
    manufacturer: 'Teltonika',
    model: 'FMB130',
    protocol: 'teltonika',
    inputs: ['DIN1 (ignição)', 'DIN2', 'DIN3', 'DOUT1 (bloqueio)', 'iButton'],
  },
  {
    manufacturer: 'Teltonika',
    model: 'FMC130',
    protocol: 'teltonika',
    inputs: ['DIN1 (ignição)', 'DIN2', 'DIN3', 'DOUT1 (bloqueio)', 'iButton'],
  },
  {
    manufacturer: 'Queclink',
    model: 'GV300',
    protocol: 'queclink',
    inputs: ['Ignição', 'Entrada 1 (pânico)', 'Saída 1 (bloqueio)'],
  },
  {
    manufacturer: 'Queclink',
    model: 'GV55',
    protocol: 'queclink',
    inputs: ['Ignição', 'Entrada 1 (pânico)', 'Saída 1 (bloqueio)'],
  },
];

const CARRIERS = [
  { carrier: 'Vivo', code: '8955110', apn: 'zap.vivo.com.br' },
  { carrier: 'Claro', code: '8955053', apn: 'claro.com.br' },
  { carrier: 'TIM', code: '8955031', apn: 'timbrasil.br' },
];

/** Drivers without a tag, so the drivers list reads like a company's. */
/**
 * Drivers without a demo vehicle. Two CNHs need attention, counted from the day the demo is
 * made: one expired 40 days before, one expiring in 20 (the drivers' screens say so).
 */
const OTHER_DRIVERS: {
  company: Company;
  name: string;
  category: string;
  expiresInDays?: number;
  /**
   * The plate of an untagged vehicle the driver is assigned to, from a while back and until
   * further notice: a fleet without RFID readers, whose driver still has a working day and a
   * driving score.
   */
  assignedTo?: string;
}[] = [
  { company: 'mother', name: 'Mariana Costa Albuquerque', category: 'B' },
  { company: 'north', name: 'Severino Ramos Bezerra', category: 'E', expiresInDays: -40 },
  {
    company: 'north',
    name: 'Paulo Henrique Cavalcanti',
    category: 'D',
    expiresInDays: 20,
    assignedTo: 'KGK6T45',
  },
  { company: 'south', name: 'Juliana Freitas Moura', category: 'AB' },
  { company: 'south', name: 'Edson Luiz Barbosa', category: 'C', assignedTo: 'QYH1Q78' },
];

const FLEETS: { company: Company; name: string; description: string; types: string[] }[] = [
  {
    company: 'mother',
    name: 'Apoio técnico',
    description: 'Instalação e manutenção de rastreadores',
    types: ['van', 'pickup', 'motorcycle'],
  },
  {
    company: 'north',
    name: 'Frota pesada',
    description: 'Caminhões, cavalo mecânico e tanque',
    types: ['truck', 'tractor_unit', 'tank_truck', 'refrigerated_truck', 'dump_truck'],
  },
  {
    company: 'north',
    name: 'Passageiros',
    description: 'Fretamento e turismo',
    types: ['bus', 'minibus'],
  },
  {
    company: 'south',
    name: 'Entregas urbanas',
    description: 'Última milha na Região Metropolitana',
    types: ['van', 'motorcycle', 'scooter', 'bicycle', 'light_truck'],
  },
  {
    company: 'south',
    name: 'Agrícola',
    description: 'Canaviais de São Lourenço da Mata',
    types: ['tractor', 'harvester'],
  },
];

/**
 * The demo fleet (server/demo/fleet.ts): forty vehicles of varied types in the three
 * companies, each with a tracker (demo-001…, driven by the simulator) and its SIM card; the
 * catalogue of tracker types, drivers (some with RFID tags the trackers read), fleets, the demo
 * Terceiro's two vehicles, one temporary link and two automated reports, so that every screen
 * has something to show.
 */
export async function seedDemoFleet(db: Db): Promise<void> {
  const companies = await db
    .select({ id: clients.id })
    .from(clients)
    .orderBy(clients.createdAt)
    .limit(3);
  const [mother, north, south] = companies.map((c) => c.id);
  if (!mother || !north || !south) throw new Error('seed: demo companies missing');
  const clientOf: Record<Company, string> = { mother, north, south };
  await db.transaction(async (tx) => {
    const types = await tx
      .insert(trackerTypes)
      .values(TRACKER_TYPES)
      .returning({ id: trackerTypes.id, protocol: trackerTypes.protocol });
    const typeOf = (protocol: string) => types.find((t) => t.protocol === protocol)?.id;
    const vehicleIds = new Map<string, string>();
    for (const [i, demo] of DEMO_FLEET.entries()) {
      const clientId = clientOf[demo.company];
      const [vehicle] = await tx
        .insert(vehicles)
        .values({
          clientId,
          name: demo.name,
          plate: demo.plate,
          type: demo.type,
          brand: demo.brand,
          model: demo.model,
          year: demo.year,
          modelYear: demo.year,
          color: demo.color,
          fuelTankLiters: DEMO_TANKS[demo.plate] ?? demo.fuelTank ?? null,
        })
        .returning({ id: vehicles.id });
      if (!vehicle) throw new Error('seed: vehicle not created');
      vehicleIds.set(demo.plate, vehicle.id);
      const sim = CARRIERS[i % CARRIERS.length] ?? CARRIERS[0];
      const [simCard] = await tx
        .insert(simCards)
        .values({
          clientId,
          iccid: iccidFrom(`${sim?.code}${String(40_000_000_000 + i * 7919).slice(0, 11)}`),
          phoneNumber: `8199${String(1_000_000 + i * 3571).slice(0, 7)}`,
          carrier: sim?.carrier,
          apn: sim?.apn,
        })
        .returning({ id: simCards.id });
      // The simulator speaks each tracker's protocol (DEMO_FLEET), with the device password of
      // those that carry one; the makers' devices are known by their IMEI.
      const { protocol } = demo;
      const native = !(protocol === 'osmand' || protocol === 'wialon_ips');
      await tx.insert(trackers).values({
        clientId,
        identifier: demo.identifier,
        provider: 'rastro',
        protocol,
        devicePasswordHash: native ? null : hashDevicePassword(demoDevicePassword(demo.identifier)),
        trackerTypeId: typeOf(protocol),
        vehicleId: vehicle.id,
        simCardId: simCard?.id,
        activatedAt: new Date(),
      });
      if (demo.driver) {
        await tx.insert(drivers).values({
          clientId,
          completName: demo.driver.name,
          cpf: cpfFromBase(String(314_159_000 + i * 97).slice(0, 9)),
          rfidCode: demo.driver.rfid,
          licenseCategory: demo.driver.licenseCategory,
          licenseExpiry: '2028-06-30',
          phone: `8198${String(2_000_000 + i * 4099).slice(0, 7)}`,
        });
      }
    }
    for (const [i, other] of OTHER_DRIVERS.entries()) {
      const [driver] = await tx
        .insert(drivers)
        .values({
          clientId: clientOf[other.company],
          completName: other.name,
          cpf: cpfFromBase(String(271_828_000 + i * 131).slice(0, 9)),
          licenseCategory: other.category,
          licenseExpiry:
            other.expiresInDays === undefined
              ? '2027-12-31'
              : reportDay(Date.now() + other.expiresInDays * 86_400_000),
        })
        .returning({ id: drivers.id });
      const vehicleId = other.assignedTo && vehicleIds.get(other.assignedTo);
      if (driver && vehicleId)
        await tx.insert(driverAssignments).values({
          clientId: clientOf[other.company],
          driverId: driver.id,
          vehicleId,
          startAt: new Date(Date.now() - 60 * 86_400_000),
        });
    }
    const idsOf = (plates: string[]) => plates.flatMap((p) => vehicleIds.get(p) ?? []);
    for (const fleet of FLEETS) {
      await tx.insert(fleets).values({
        clientId: clientOf[fleet.company],
        name: fleet.name,
        description: fleet.description,
        vehicleIds: idsOf(
          DEMO_FLEET.filter((v) => v.company === fleet.company && fleet.types.includes(v.type)).map(
            (v) => v.plate,
          ),
        ),
      });
    }
    await seedMaintenance(tx, north, idsOf);
    await seedDocuments(tx, north, idsOf);
    // The drivers' working day, watched over the whole group (the mother company's subtree).
    for (const [type, name] of [
      ['JORNADA_DRIVING_LIMIT', 'Pausa obrigatória (5 h de direção)'],
      ['JORNADA_REST_SHORT', 'Descanso insuficiente'],
    ] as const)
      await tx.insert(alertRules).values({
        clientId: clientOf.mother,
        name,
        type,
        params: {},
        emailDelivery: '',
      });
    await seedFuel(tx, clientOf, vehicleIds);
    const [visitor] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'terceiro@rastro.demo'));
    if (visitor)
      await tx
        .insert(visitorVehicles)
        .values(idsOf(VISITOR_VEHICLES).map((vehicleId) => ({ userId: visitor.id, vehicleId })));
    const [admin] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'admin@rastro.demo'));
    if (admin)
      await tx.insert(temporaryUsers).values({
        clientId: north,
        createdBy: admin.id,
        name: 'Entrega do Frigorífico 01 — CEASA › Shopping Recife',
        token: randomBytes(24).toString('base64url'),
        vehicleIds: idsOf(SHARED_VEHICLES),
        expiresAt: new Date(Date.now() + 30 * 24 * 3600_000),
      });
    // Two automated reports, so that Relatórios Automatizados shows what it does. They are
    // sent at 07:00 like any rule: to the demo's own addresses, through the SMTP configured.
    await tx.insert(autoReportRules).values([
      {
        clientId: mother,
        createdBy: admin?.id,
        name: 'Distâncias do dia — Onix Diretoria',
        reportType: 'DISTANCE',
        format: 'pdf',
        periodicity: 'DAILY',
        vehicleIds: idsOf(['PCX1A23']),
        emailDelivery: 'diretoria@rastro.demo',
        sendHour: 7,
      },
      {
        clientId: north,
        createdBy: admin?.id,
        name: 'Jornadas da semana — caminhões baú',
        reportType: 'TRIPS',
        format: 'excel',
        periodicity: 'WEEKLY',
        vehicleIds: idsOf(['KGH1L23', 'KGH4M56']),
        emailDelivery: 'frota@norte.rastro.demo, operacao@norte.rastro.demo',
        sendHour: 7,
        weekday: 1,
      },
    ]);
  });
}

const daysFromNow = (n: number) => reportDay(Date.now() + n * 86_400_000);

/**
 * Transportes Norte's maintenance, counted from the day the demo is made: a review overdue, an
 * oil change due within its margin, a tyre plan far off, the services done so far, and a rule
 * that raises MAINTENANCE_DUE for the company.
 */
async function seedMaintenance(tx: Db, north: string, idsOf: (plates: string[]) => string[]) {
  const [truck, other] = idsOf(['KGH1L23', 'KGH4M56']);
  if (!truck || !other) return;
  const plans = await tx
    .insert(maintenancePlans)
    .values([
      {
        clientId: north,
        name: 'Revisão preventiva',
        vehicleId: truck,
        everyDays: 180,
        warnDays: 15,
        startDate: daysFromNow(-190),
      },
      {
        clientId: north,
        name: 'Troca de óleo e filtros',
        vehicleId: other,
        everyKm: 15_000,
        warnKm: 1_000,
        everyDays: 90,
        warnDays: 15,
        startDate: daysFromNow(-80),
      },
      {
        clientId: north,
        name: 'Rodízio de pneus',
        vehicleId: truck,
        everyKm: 20_000,
        warnKm: 2_000,
        startDate: daysFromNow(-10),
      },
    ])
    .returning({ id: maintenancePlans.id, name: maintenancePlans.name });
  const planId = (name: string) => plans.flatMap((p) => (p.name === name ? [p.id] : []));
  await tx.insert(serviceRecords).values([
    {
      clientId: north,
      vehicleId: truck,
      date: daysFromNow(-190),
      odometerKm: 0,
      items: ['Revisão dos 100 mil km', 'Troca de pastilhas de freio'],
      costCents: 248_000,
      workshop: 'Mecânica Boa Viagem',
      notes: 'Próxima revisão em seis meses.',
      planIds: planId('Revisão preventiva'),
    },
    {
      clientId: north,
      vehicleId: truck,
      date: daysFromNow(-10),
      odometerKm: 0,
      items: ['Rodízio e balanceamento'],
      costCents: 36_000,
      workshop: 'Pneus Recife',
      planIds: planId('Rodízio de pneus'),
    },
  ]);
  await tx.insert(alertRules).values({
    clientId: north,
    name: 'Manutenção da frota',
    type: 'MAINTENANCE_DUE',
    params: {},
    emailDelivery: '',
  });
}

/**
 * Two months of refuels of a few vehicles, with one larger than its truck's tank and the
 * sensor truck's week (server/demo/fuel.ts), and their other expenses.
 */
async function seedFuel(
  tx: Db,
  clientOf: Record<Company, string>,
  vehicleIds: Map<string, string>,
) {
  const demoOf = new Map(DEMO_FLEET.map((d) => [d.plate, d]));
  const people = await tx.select({ id: drivers.id, name: drivers.completName }).from(drivers);
  const driverOf = (plate: string) => {
    const name = demoOf.get(plate)?.driver?.name;
    return people.find((p) => p.name === name)?.id ?? null;
  };
  const refuelRows = demoRefuels(Date.now() - HISTORY_GAP_MS).flatMap((r) => {
    const demo = demoOf.get(r.plate);
    const vehicleId = vehicleIds.get(r.plate);
    if (!demo || !vehicleId) return [];
    return [
      {
        clientId: clientOf[demo.company],
        vehicleId,
        driverId: driverOf(r.plate),
        at: r.at,
        liters: r.liters,
        priceMilli: r.priceMilli,
        totalCents: totalCentsOf(r.liters, r.priceMilli),
        odometerKm: r.odometerKm,
        station: r.station,
        fullTank: r.fullTank,
        notes: r.notes ?? null,
      },
    ];
  });
  if (refuelRows.length > 0) await tx.insert(refuels).values(refuelRows);
  const expenseRows = demoExpenses(new Date()).flatMap((e) => {
    const demo = demoOf.get(e.plate);
    const vehicleId = vehicleIds.get(e.plate);
    if (!demo || !vehicleId) return [];
    const { plate: _plate, ...expense } = e;
    return [{ clientId: clientOf[demo.company], vehicleId, ...expense }];
  });
  if (expenseRows.length > 0) await tx.insert(vehicleExpenses).values(expenseRows);
}

/**
 * Transportes Norte's documents, counted from the day the demo is made: an insurance expired,
 * a CRLV and a tachograph inspection within 30 days, the rest later; a driver's toxicological
 * exam and MOPP course; and a rule that warns 30 days ahead.
 */
async function seedDocuments(tx: Db, north: string, idsOf: (plates: string[]) => string[]) {
  const [truck, other] = idsOf(['KGH1L23', 'KGH4M56']);
  if (!truck || !other) return;
  const [driver] = await tx
    .select({ id: drivers.id })
    .from(drivers)
    .where(eq(drivers.completName, 'Paulo Henrique Cavalcanti'));
  await tx.insert(documents).values([
    {
      clientId: north,
      vehicleId: truck,
      kind: 'insurance',
      number: 'AP-778812',
      expiry: daysFromNow(-5),
    },
    {
      clientId: north,
      vehicleId: truck,
      kind: 'crlv',
      number: '0123456789',
      expiry: daysFromNow(12),
    },
    {
      clientId: north,
      vehicleId: other,
      kind: 'tachograph',
      number: 'INM-55021',
      expiry: daysFromNow(25),
    },
    { clientId: north, vehicleId: other, kind: 'ipva', expiry: daysFromNow(75) },
    {
      clientId: north,
      vehicleId: truck,
      kind: 'rntrc',
      number: '045612378',
      expiry: daysFromNow(300),
    },
    ...(driver
      ? [
          { clientId: north, driverId: driver.id, kind: 'toxicological', expiry: daysFromNow(40) },
          {
            clientId: north,
            driverId: driver.id,
            kind: 'course',
            name: 'MOPP',
            expiry: daysFromNow(85),
          },
        ]
      : []),
  ]);
  await tx.insert(alertRules).values({
    clientId: north,
    name: 'Documentos vencendo',
    type: 'DOCUMENT_EXPIRING',
    params: { daysBefore: 30 },
    emailDelivery: '',
  });
}

/**
 * The demo's geofences, their vehicles and its alert rules (server/demo/alerts.ts), placed
 * along the simulator's timeline for `intervalMs` so that they fire within a minute.
 */
export async function seedDemoAlerts(db: Db, intervalMs: number): Promise<void> {
  const companies = await db
    .select({ id: clients.id })
    .from(clients)
    .orderBy(clients.createdAt)
    .limit(3);
  const [mother, north] = companies.map((c) => c.id);
  if (!mother || !north) throw new Error('seed: demo companies missing');
  const clientOf = { mother, north };
  await db.transaction(async (tx) => {
    for (const fence of demoGeofences(intervalMs)) {
      const [row] = await tx
        .insert(geofences)
        .values({
          clientId: north,
          name: fence.name,
          description: fence.description,
          color: fence.color,
          speedLimit: fence.speedLimit,
          geometry: fence.geometry,
        })
        .returning({ id: geofences.id });
      const [vehicle] = await tx
        .select({ id: vehicles.id })
        .from(vehicles)
        .where(eq(vehicles.plate, fence.vehicle));
      if (row && vehicle)
        await tx.insert(geofenceVehicles).values({
          geofenceId: row.id,
          vehicleId: vehicle.id,
          restrictionType: fence.restrictionType,
        });
    }
    await tx.insert(alertRules).values(
      DEMO_RULES.map((rule) => ({
        clientId: clientOf[rule.company],
        name: rule.name,
        type: rule.type,
        params: rule.params,
        emailDelivery: rule.emailDelivery ?? '',
      })),
    );
  });
}

/**
 * The demo that `npm start` shows a newcomer: a mother company with two child companies and
 * one user of each role (all with the password DEMO_PASSWORD, for the demo only). It runs
 * only on an empty database, inside one transaction, so it is never applied twice.
 */
import { count } from 'drizzle-orm';
import type { Role } from '../../src/contract';
import type { Db } from './client';
import { clients, trackers, users, vehicles } from './schema';

export const DEMO_PASSWORD = 'rastro-demo';

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

/** The demo fleet: four vehicles with Rastro trackers (demo-001…) in each company. */
export async function seedDemoFleet(db: Db): Promise<void> {
  const companies = await db
    .select({ id: clients.id, name: clients.name })
    .from(clients)
    .orderBy(clients.createdAt);
  const kinds = ['truck', 'van', 'car', 'motorcycle', 'bus', 'pickup'] as const;
  let n = 0;
  await db.transaction(async (tx) => {
    for (const company of companies.slice(0, 3)) {
      for (let i = 0; i < 4; i++) {
        n += 1;
        const number = String(n).padStart(3, '0');
        const type = kinds[n % kinds.length] ?? 'car';
        const [vehicle] = await tx
          .insert(vehicles)
          .values({
            clientId: company.id,
            name: `Demo ${number}`,
            plate: `RST${n % 10}D${String(n).padStart(2, '0')}`,
            type,
          })
          .returning({ id: vehicles.id });
        await tx.insert(trackers).values({
          clientId: company.id,
          identifier: `demo-${number}`,
          provider: 'rastro',
          vehicleId: vehicle?.id,
          activatedAt: new Date(),
        });
      }
    }
  });
}

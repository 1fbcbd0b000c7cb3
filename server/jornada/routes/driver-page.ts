/**
 * The driver's own page. A manager makes a personal link for a driver (an address with a long
 * random token, an expiry and a PIN they tell the driver); on the driver's phone the PIN opens a
 * session whose token the page keeps. With it the driver reads their day, sends their
 * working-day marks and reports problems with the vehicle — their own data only, never anyone
 * else's. Managers list, revoke and read what drivers reported.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Context, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { describeRoute } from 'hono-openapi';
import {
  DRIVER_LINK_ENDED,
  DRIVER_LINK_LOCKED,
  DRIVER_LINK_UNKNOWN,
  DRIVER_PIN_WRONG,
  DRIVER_SESSION_ENDED,
  DriverDaySchema,
  DriverLinkCreatedSchema,
  DriverLinkCreateSchema,
  DriverLinkListSchema,
  DriverLinkQuerySchema,
  type DriverLinkState,
  DriverProblemReportListSchema,
  DriverProblemSchema,
  DriverSessionSchema,
  DriverSignInSchema,
  MARK_FUTURE_SKEW_MS,
  MarkCreateSchema,
  MarkSchema,
  MessageSchema,
  photoParts,
} from '../../../src/contract';
import { dayStart, reportDay } from '../../../src/lib/report-period';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import { hashPassword, verifyPassword } from '../../accounts/auth/passwords';
import { bearerToken } from '../../accounts/auth/tokens';
import { anonymousActor, recordAudit, recordChange } from '../../audit/record';
import type { Deps } from '../../deps';
import { getOwned } from '../../owned/queries';
import { HttpError, notFound, unauthorized } from '../../platform/http/errors';
import { docs, IdParam } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import { drivers } from '../../schema';
import { visibleClientIds } from '../../tenancy/scope';
import { breakDueAt, jornadaDays, journeys, timeline } from '../engine';
import {
  closeDriverSession,
  countWrongPin,
  type DriverLinkRow,
  driverLinkById,
  driverLinkByToken,
  driverLinksOf,
  driverOfReport,
  driverReportById,
  driverReportsOf,
  driverSessionByToken,
  insertDriverLink,
  insertDriverReport,
  openDriverSession,
  resolveDriverReport,
  revokeDriverLink,
  touchDriverSession,
  vehicleOfDriver,
} from '../queries/driver-page';
import { marksOf, writeMark } from '../queries/jornada';
import { inputOf } from '../service';

/** How far back the driver's page reads marks: a journey begun last evening is still on. */
const DRIVER_DAY_MARKS_MS = 36 * 3_600_000;
const DAY_MS = 86_400_000;

export const DRIVER_REPORT_ID_TAKEN = 'Este identificador já foi usado por outro relato';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const iso = (date: Date | null) => date?.toISOString() ?? null;

export function linkState(row: DriverLinkRow, now = Date.now()): DriverLinkState {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt.getTime() <= now) return 'expired';
  if (row.lockedUntil && row.lockedUntil.getTime() > now) return 'locked';
  return 'active';
}

const linkOut = (row: DriverLinkRow) => ({
  id: row.id,
  driverId: row.driverId,
  state: linkState(row),
  expiresAt: row.expiresAt.toISOString(),
  revokedAt: iso(row.revokedAt),
  lockedUntil: iso(row.lockedUntil),
  lastUsedAt: iso(row.lastUsedAt),
  createdAt: row.createdAt.toISOString(),
});

/** Links: made, listed and revoked by whoever manages people (the link opens a driver's data). */
export function driverLinkRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('CrudUser'));

  async function driverOf(c: Context<AuthEnv>, id: string) {
    const driver = await getOwned(db, drivers, id, await visibleClientIds(c, deps));
    if (!driver || driver.canceledAt) throw notFound('Motorista não encontrado');
    return driver;
  }

  app.get(
    '/',
    describeRoute({
      tags: ['Motoristas'],
      summary: 'Links do motorista e o estado de cada um',
      responses: { 200: docs(DriverLinkListSchema, 'Links') },
    }),
    validate('query', DriverLinkQuerySchema),
    async (c) => {
      const driver = await driverOf(c, c.req.valid('query').driverId);
      return c.json((await driverLinksOf(db, driver.id)).map(linkOut));
    },
  );

  app.post(
    '/',
    describeRoute({
      tags: ['Motoristas'],
      summary: 'Criar o link do motorista (o endereço só aparece nesta resposta)',
      responses: { 201: docs(DriverLinkCreatedSchema, 'Link e endereço') },
    }),
    validate('json', DriverLinkCreateSchema),
    async (c) => {
      const input = c.req.valid('json');
      const driver = await driverOf(c, input.driverId);
      const token = randomBytes(24).toString('base64url');
      const pinHash = await hashPassword(input.pin);
      const row = await db.transaction(async (tx) => {
        const created = await insertDriverLink(tx, {
          clientId: driver.clientId,
          driverId: driver.id,
          createdBy: c.var.user.id,
          tokenHash: sha256(token),
          pinHash,
          expiresAt: new Date(input.expiresAt),
        });
        await recordChange(tx, c, deps, {
          entity: 'driver_link',
          clientId: driver.clientId,
          entityId: created.id,
          summary: driver.completName,
          after: linkOut(created),
        });
        return created;
      });
      return c.json({ link: linkOut(row), path: `/motorista/${token}` }, 201);
    },
  );

  app.post(
    '/:id/revoke',
    describeRoute({
      tags: ['Motoristas'],
      summary: 'Revogar o link do motorista (as sessões abertas por ele terminam)',
      responses: { 200: docs(MessageSchema, 'Revogado') },
    }),
    validate('param', IdParam),
    async (c) => {
      const row = await driverLinkById(
        db,
        c.req.valid('param').id,
        await visibleClientIds(c, deps),
      );
      if (!row) throw notFound('Link não encontrado');
      if (row.revokedAt) throw new HttpError(409, 'CONFLICT', 'Este link já foi revogado');
      await db.transaction(async (tx) => {
        const revoked = await revokeDriverLink(tx, row.id);
        await recordChange(tx, c, deps, {
          entity: 'driver_link',
          clientId: row.clientId,
          entityId: row.id,
          before: linkOut(row),
          after: revoked ? linkOut(revoked) : null,
        });
      });
      return c.json({ message: 'Link revogado' });
    },
  );
  return app;
}

/** What drivers reported about their vehicles, for whoever sees the company's records. */
export function driverReportRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));
  const photoPath = (clientId: string, id: string) =>
    path.join(deps.config.uploadDir, 'driver-reports', clientId, id);

  app.get(
    '/',
    describeRoute({
      tags: ['Motoristas'],
      summary: 'Problemas relatados pelos motoristas (abertos primeiro)',
      responses: { 200: docs(DriverProblemReportListSchema, 'Relatos') },
    }),
    async (c) => {
      const rows = await driverReportsOf(db, await visibleClientIds(c, deps));
      return c.json(
        rows.map((row) => ({
          id: row.id,
          driverId: row.driverId,
          driverName: row.driverName,
          vehicleId: row.vehicleId,
          plate: row.plate,
          text: row.text,
          hasPhoto: row.photoType !== null,
          reportedAt: row.reportedAt.toISOString(),
          resolvedAt: iso(row.resolvedAt),
        })),
      );
    },
  );

  app.get(
    '/:id/photo',
    describeRoute({ tags: ['Motoristas'], summary: 'A foto de um problema relatado' }),
    validate('param', IdParam),
    async (c) => {
      const row = await driverReportById(
        db,
        c.req.valid('param').id,
        await visibleClientIds(c, deps),
      );
      if (!row?.photoType) throw notFound('Foto não encontrada');
      const bytes = await readFile(photoPath(row.clientId, row.id)).catch(() => {
        throw notFound('Foto não encontrada');
      });
      c.header('Content-Type', row.photoType);
      c.header('X-Content-Type-Options', 'nosniff');
      return c.body(new Uint8Array(bytes));
    },
  );

  app.post(
    '/:id/resolve',
    describeRoute({
      tags: ['Motoristas'],
      summary: 'Marcar um problema relatado como resolvido',
      responses: { 200: docs(MessageSchema, 'Resolvido') },
    }),
    requirePermission('create_resources'),
    validate('param', IdParam),
    async (c) => {
      const row = await driverReportById(
        db,
        c.req.valid('param').id,
        await visibleClientIds(c, deps),
      );
      if (!row) throw notFound('Relato não encontrado');
      await db.transaction(async (tx) => {
        const done = await resolveDriverReport(tx, row.id, c.var.user.id);
        if (!done) throw new HttpError(409, 'CONFLICT', 'Este problema já foi resolvido');
        await recordChange(tx, c, deps, {
          entity: 'driver_report',
          clientId: row.clientId,
          entityId: row.id,
          summary: row.text.slice(0, 80),
          before: { resolvedAt: null },
          after: { resolvedAt: new Date().toISOString() },
        });
      });
      return c.json({ message: 'Problema marcado como resolvido' });
    },
  );
  return app;
}

export interface DriverCaller {
  sessionId: string;
  driverId: string;
  clientId: string;
  driverName: string;
  driverRfid: string | null;
  expiresAt: Date;
}
export type DriverEnv = { Variables: { driver: DriverCaller } };

/** A driver's session token: told apart from a user's access token by its prefix. */
const SESSION_PREFIX = 'drv_';

/** Calls from the driver's page: a session of a link that still works, of a driver still active. */
export function requireDriver(deps: Deps) {
  const { db } = deps.database;
  return createMiddleware<DriverEnv>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    if (!token?.startsWith(SESSION_PREFIX)) throw unauthorized(DRIVER_SESSION_ENDED, 'NO_TOKEN');
    const row = await driverSessionByToken(db, sha256(token));
    if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now() || !row.driverLive)
      throw unauthorized(DRIVER_SESSION_ENDED, 'SESSION_REVOKED');
    c.set('driver', row);
    await touchDriverSession(db, row.sessionId);
    await next();
  });
}

export function driverPageRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<DriverEnv>();
  const photoPath = (clientId: string, id: string) =>
    path.join(deps.config.uploadDir, 'driver-reports', clientId, id);

  app.post(
    '/session',
    describeRoute({
      tags: ['Página do motorista'],
      summary: 'Abrir a página do motorista com o link e o PIN',
      responses: { 201: docs(DriverSessionSchema, 'Sessão do motorista') },
    }),
    validate('json', DriverSignInSchema),
    async (c) => {
      const { token, pin } = c.req.valid('json');
      const found = await driverLinkByToken(db, sha256(token));
      if (!found) throw notFound(DRIVER_LINK_UNKNOWN);
      const { link } = found;
      const state = linkState(link);
      if (state === 'expired' || state === 'revoked' || !found.driverLive)
        throw new HttpError(410, 'NOT_FOUND', DRIVER_LINK_ENDED);
      if (state === 'locked') throw new HttpError(429, 'TOO_MANY_REQUESTS', DRIVER_LINK_LOCKED);
      if (!(await verifyPassword(link.pinHash, pin))) {
        const counted = await countWrongPin(db, link.id);
        await recordAudit(db, {
          ...anonymousActor(c, deps),
          clientId: link.clientId,
          kind: 'sign_in_failed',
          entity: 'driver_link',
          entityId: link.id,
          summary: `${found.driverName}: ${DRIVER_PIN_WRONG}`,
        });
        if (counted && linkState(counted) === 'locked')
          throw new HttpError(429, 'TOO_MANY_REQUESTS', DRIVER_LINK_LOCKED);
        throw unauthorized(DRIVER_PIN_WRONG, 'WRONG_PIN');
      }
      const sessionToken = `${SESSION_PREFIX}${randomBytes(32).toString('base64url')}`;
      await db.transaction(async (tx) => {
        await openDriverSession(tx, link.id, sha256(sessionToken));
        await recordAudit(tx, {
          ...anonymousActor(c, deps),
          clientId: link.clientId,
          kind: 'sign_in',
          entity: 'driver_link',
          entityId: link.id,
          summary: found.driverName,
        });
      });
      return c.json(
        { sessionToken, driverName: found.driverName, expiresAt: link.expiresAt.toISOString() },
        201,
      );
    },
  );

  app.use('/me/*', requireDriver(deps));

  app.post(
    '/me/sign-out',
    describeRoute({
      tags: ['Página do motorista'],
      summary: 'Sair da página do motorista neste aparelho',
      responses: { 200: docs(MessageSchema, 'Saiu') },
    }),
    async (c) => {
      await closeDriverSession(db, c.var.driver.sessionId);
      return c.json({ message: 'Sessão encerrada' });
    },
  );

  app.post(
    '/me/marks',
    describeRoute({
      tags: ['Página do motorista'],
      summary: 'Marcação da jornada pelo próprio motorista (o mesmo id de novo: a mesma resposta)',
      responses: {
        201: docs(MarkSchema, 'Marcação registrada'),
        200: docs(MarkSchema, 'Marcação já registrada com este id'),
      },
    }),
    validate('json', MarkCreateSchema),
    async (c) => {
      const driver = c.var.driver;
      const { mark, created } = await writeMark(
        db,
        { driverId: driver.driverId, clientId: driver.clientId, source: 'motorista', userId: null },
        c.req.valid('json'),
        new Date(),
      );
      return c.json(mark, created ? 201 : 200);
    },
  );

  app.get(
    '/me/today',
    describeRoute({
      tags: ['Página do motorista'],
      summary: 'O dia do motorista: marcações, períodos de hoje, veículo e a próxima pausa',
      responses: { 200: docs(DriverDaySchema, 'O dia') },
    }),
    async (c) => {
      const driver = c.var.driver;
      const now = new Date();
      const who = {
        id: driver.driverId,
        clientId: driver.clientId,
        completName: driver.driverName,
        rfidCode: driver.driverRfid,
      };
      const today = reportDay(now);
      // A journey begun yesterday evening is still today's state: the marks of the last 36 h.
      const since = new Date(now.getTime() - DRIVER_DAY_MARKS_MS);
      // From two days back, as the Jornada report reads a day (the rest before it counts).
      const [input, marks, vehicle] = await Promise.all([
        inputOf(db, who, [driver.clientId], new Date(dayStart(today).getTime() - 2 * DAY_MS), now),
        marksOf(db, driver.driverId, since, new Date(now.getTime() + MARK_FUTURE_SKEW_MS)),
        vehicleOfDriver(db, driver, now),
      ]);
      const days = jornadaDays(input, today, today);
      const due = breakDueAt(input, now.getTime());
      return c.json({
        driverName: driver.driverName,
        vehicle: vehicle ? { plate: vehicle.plate, name: vehicle.name } : null,
        marks: marks.map((m) => ({ id: m.id, kind: m.kind, at: m.at.toISOString() })),
        periods: (days[0]?.periods ?? []).map((p) => ({
          kind: p.kind,
          start: new Date(p.start).toISOString(),
          end: new Date(p.end).toISOString(),
          source: p.source,
        })),
        breakDueAt: due === null ? null : new Date(due).toISOString(),
        journeys: journeys(input, timeline(input)).map((j) => ({
          start: new Date(j.start).toISOString(),
          end: new Date(j.end).toISOString(),
        })),
        at: now.toISOString(),
      });
    },
  );

  app.post(
    '/me/problems',
    describeRoute({
      tags: ['Página do motorista'],
      summary: 'Relatar um problema com o veículo (texto e foto opcional); o mesmo id não duplica',
      responses: { 201: docs(MessageSchema, 'Recebido') },
    }),
    validate('json', DriverProblemSchema),
    async (c) => {
      const input = c.req.valid('json');
      const driver = c.var.driver;
      const photo = input.photo ? photoParts(input.photo) : undefined;
      const vehicle = await vehicleOfDriver(db, driver, new Date());
      // The row first, the photo in its transaction: a report's photo is written only by the
      // call that stored the report, never over it by a copy or by an id someone reused.
      const created = await db.transaction(async (tx) => {
        const stored = await insertDriverReport(tx, {
          id: input.id,
          clientId: driver.clientId,
          driverId: driver.driverId,
          vehicleId: vehicle?.id ?? null,
          text: input.text,
          photoType: photo?.type ?? null,
          reportedAt: new Date(input.at),
        });
        if (stored && photo) {
          const file = photoPath(driver.clientId, input.id);
          await mkdir(path.dirname(file), { recursive: true });
          await writeFile(file, photo.bytes);
        }
        return stored;
      });
      // Sent again (a lost answer): the same answer. An id of somebody else's report: refused.
      if (!created && (await driverOfReport(db, input.id)) !== driver.driverId)
        throw new HttpError(409, 'CONFLICT', DRIVER_REPORT_ID_TAKEN);
      return c.json({ message: 'Problema enviado ao gestor' }, created ? 201 : 200);
    },
  );
  return app;
}

/**
 * The driver's working day for the people who run the company: a driver's marks (a manager
 * may type one in for the driver), corrections of a period, the days worked out with their
 * violations, and the company's rules (cargo or passengers, 2 h or 4 h of overtime).
 *
 * Marks are written by `writeMark` (jornada/queries/jornada.ts) with the driver's id and who marked
 * it: the driver's own link calls the same function with source 'motorista'.
 */
import { type Context, Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import {
  CorrectionCreateSchema,
  CorrectionListSchema,
  CorrectionSchema,
  DriverParam,
  JornadaFileQuerySchema,
  JornadaRangeQuerySchema,
  JornadaReportSchema,
  JornadaSettingsQuerySchema,
  JornadaSettingsSchema,
  JornadaSettingsUpdateSchema,
  MarkCreateSchema,
  MarkListSchema,
  MarkSchema,
} from '../../../src/contract';
import { dayStart, nextDay } from '../../../src/lib/report-period';
import { type AuthEnv, requireAuth, requirePermission } from '../../accounts/auth/middleware';
import { actorOf } from '../../audit/record';
import type { Deps } from '../../deps';
import { getOwned } from '../../owned/queries';
import { notFound } from '../../platform/http/errors';
import { docs } from '../../platform/http/openapi';
import { validate } from '../../platform/http/validate';
import { REPORT_EXTENSION, REPORT_MIME } from '../../reports/files/model';
import { drivers } from '../../schema';
import { getClient } from '../../tenancy/queries';
import { visibleClient, visibleClientIds } from '../../tenancy/scope';
import { jornadaDocument, jornadaFile } from '../files';
import {
  correctionsOf,
  insertCorrection,
  jornadaSettingsOf,
  marksOf,
  saveJornadaSettings,
  toCorrection,
  toMark,
  vehicleLabels,
  writeMark,
} from '../queries/jornada';
import { jornadaOf, jornadaReport } from '../service';

const TAG = 'Jornada';
export const DRIVER_NOT_FOUND = 'Motorista não encontrado';

/** A live driver of the caller's companies; anything else (and any driver for a Terceiro) 404s. */
async function visibleDriver(c: Context<AuthEnv>, deps: Deps, id: string) {
  if (c.var.user.role === 'VISITOR') throw notFound(DRIVER_NOT_FOUND);
  const owners = await visibleClientIds(c, deps);
  const row = await getOwned(deps.database.db, drivers, id, owners);
  if (!row || row.canceledAt) throw notFound(DRIVER_NOT_FOUND);
  return { driver: row, owners };
}

const rangeOf = (q: { from: string; to: string }) => ({
  from: dayStart(q.from),
  to: dayStart(nextDay(q.to)),
});

export function jornadaRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));

  app.post(
    '/drivers/:driverId/marks',
    describeRoute({
      tags: [TAG],
      summary: 'Registra uma marcação do motorista (o mesmo id de novo: a mesma resposta)',
      responses: {
        201: docs(MarkSchema, 'Marcação registrada'),
        200: docs(MarkSchema, 'Marcação já registrada com este id'),
      },
    }),
    requirePermission('create_resources'),
    validate('param', DriverParam),
    validate('json', MarkCreateSchema),
    async (c) => {
      const { driver } = await visibleDriver(c, deps, c.req.valid('param').driverId);
      const { mark, created } = await writeMark(
        db,
        { driverId: driver.id, clientId: driver.clientId, source: 'gestor', userId: c.var.user.id },
        c.req.valid('json'),
        new Date(),
      );
      return c.json(mark, created ? 201 : 200);
    },
  );

  app.get(
    '/drivers/:driverId/marks',
    describeRoute({
      tags: [TAG],
      summary: 'Marcações do motorista nos dias dados (horário de São Paulo)',
      responses: { 200: docs(MarkListSchema, 'Marcações, em ordem de horário') },
    }),
    validate('param', DriverParam),
    validate('query', JornadaRangeQuerySchema),
    async (c) => {
      const { driver } = await visibleDriver(c, deps, c.req.valid('param').driverId);
      const { from, to } = rangeOf(c.req.valid('query'));
      return c.json({ items: (await marksOf(db, driver.id, from, to)).map(toMark) });
    },
  );

  app.post(
    '/drivers/:driverId/corrections',
    describeRoute({
      tags: [TAG],
      summary: 'Corrige um período da jornada do motorista (fica no registro de auditoria)',
      responses: { 201: docs(CorrectionSchema, 'Correção registrada') },
    }),
    // Corrections change what a driver is paid and held to: only those who run the company.
    requirePermission('delete_resources'),
    validate('param', DriverParam),
    validate('json', CorrectionCreateSchema),
    async (c) => {
      const { driver } = await visibleDriver(c, deps, c.req.valid('param').driverId);
      const row = await insertCorrection(
        db,
        { driverId: driver.id, clientId: driver.clientId, actor: actorOf(c, deps) },
        c.req.valid('json'),
      );
      return c.json(toCorrection(row), 201);
    },
  );

  app.get(
    '/drivers/:driverId/corrections',
    describeRoute({
      tags: [TAG],
      summary: 'Correções da jornada do motorista que tocam os dias dados',
      responses: { 200: docs(CorrectionListSchema, 'Correções, da mais antiga à mais nova') },
    }),
    validate('param', DriverParam),
    validate('query', JornadaRangeQuerySchema),
    async (c) => {
      const { driver } = await visibleDriver(c, deps, c.req.valid('param').driverId);
      const { from, to } = rangeOf(c.req.valid('query'));
      return c.json({ items: (await correctionsOf(db, driver.id, from, to)).map(toCorrection) });
    },
  );

  app.get(
    '/drivers/:driverId/days',
    describeRoute({
      tags: [TAG],
      summary: 'A jornada do motorista dia a dia: períodos, totais e violações',
      responses: { 200: docs(JornadaReportSchema, 'Dias da jornada') },
    }),
    validate('param', DriverParam),
    validate('query', JornadaRangeQuerySchema),
    async (c) => {
      const { driver, owners } = await visibleDriver(c, deps, c.req.valid('param').driverId);
      const q = c.req.valid('query');
      const { settings, days } = await jornadaOf(db, driver, owners, q.from, q.to, new Date());
      return c.json(jornadaReport(driver, settings, days));
    },
  );

  app.get(
    '/drivers/:driverId/file',
    describeRoute({
      tags: [TAG],
      summary: 'Jornada do motorista ou espelho de ponto do mês, em PDF ou XLSX',
      responses: { 200: { description: 'O arquivo' } },
    }),
    validate('param', DriverParam),
    validate('query', JornadaFileQuerySchema),
    async (c) => {
      const { driver, owners } = await visibleDriver(c, deps, c.req.valid('param').driverId);
      const q = c.req.valid('query');
      const now = new Date();
      const { settings, days } = await jornadaOf(db, driver, owners, q.from, q.to, now);
      const labels = await vehicleLabels(db, [
        ...new Set(days.flatMap((d) => d.periods.flatMap((p) => p.vehicleId ?? []))),
      ]);
      const doc = jornadaDocument(
        {
          espelho: q.kind === 'espelho',
          customer: (await getClient(db, driver.clientId))?.name ?? '',
          driverName: driver.completName,
          regime: settings.regime,
          overtimeLimitMinutes: settings.overtimeLimitMinutes,
          fromDay: q.from,
          toDay: q.to,
          days,
          plates: new Map([...labels].map(([id, v]) => [id, v.plate])),
        },
        now,
      );
      const bytes = await jornadaFile(doc, q.format);
      const extension = REPORT_EXTENSION[q.format];
      return c.body(new Uint8Array(bytes), 200, {
        'content-type': REPORT_MIME[q.format],
        'content-disposition': `attachment; filename="${doc.fileBase}_${q.from}_${q.to}.${extension}"`,
      });
    },
  );

  app.get(
    '/settings',
    describeRoute({
      tags: [TAG],
      summary: 'Regras de jornada da empresa (carga ou passageiros, limite de horas extras)',
      responses: { 200: docs(JornadaSettingsSchema, 'Regras') },
    }),
    validate('query', JornadaSettingsQuerySchema),
    async (c) => {
      const { clientId } = c.req.valid('query');
      if (c.var.user.role === 'VISITOR') throw notFound('Cliente não encontrado');
      await visibleClient(c, deps, clientId);
      return c.json(await jornadaSettingsOf(db, clientId));
    },
  );

  app.put(
    '/settings',
    describeRoute({
      tags: [TAG],
      summary: 'Muda as regras de jornada da empresa',
      responses: { 200: docs(JornadaSettingsSchema, 'Regras') },
    }),
    requirePermission('delete_resources'),
    validate('json', JornadaSettingsUpdateSchema),
    async (c) => {
      const { clientId, ...values } = c.req.valid('json');
      await visibleClient(c, deps, clientId);
      return c.json(await saveJornadaSettings(db, actorOf(c, deps), clientId, values));
    },
  );

  return app;
}

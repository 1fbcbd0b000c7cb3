/**
 * Report documents (model.ts) built from the reports of server/reports/: the same trips, stops,
 * distances and summaries the screens show, as typed tables with their totals, and the route
 * of histories and trips. Positions are read as the database streams them (a day at a time),
 * so a month of fixes reaches the XLSX writer row by row.
 */
import {
  ALERT_TYPE_LABELS,
  type AlertType,
  type DriverReport,
  type ReportType,
  type Stop,
  type Trip,
} from '../../../src/contract';
import { reportDay } from '../../../src/lib/report-period';
import { companyJornadaDocument } from '../../jornada/company';
import type { Db } from '../../platform/db/client';
import type { ReportAlerts } from '../alerts';
import { journeysOf, stopOf, tagsOf } from '../build';
import { fleetCostDocument, fleetCosts } from '../costs';
import { distanceReports } from '../distance';
import { DEFAULT_SCORING, drivingReport, monthOf } from '../driving-report';
import { drivingSettingsOf } from '../queries/driving-settings';
import {
  type DriverRow,
  driverNames,
  positionLines,
  type TaggedDriver,
  type VehicleRow,
} from '../queries/reports';
import { analyse, driverReport, summaryReport } from '../service';
import { drivingDocument } from './driving';
import type { Cell, Column, ReportDocument, Route } from './model';

export interface DocumentContext {
  db: Db;
  alerts: ReportAlerts;
  customer: string;
  beginAt: Date;
  endAt: Date;
  generatedAt: Date;
}

const vehicleText = (v: { plate: string; name: string }) => `${v.plate} — ${v.name}`;
const place = (lat: number, lon: number) => `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
const when = (iso: string) => new Date(iso);

function base(
  ctx: DocumentContext,
  title: string,
  fileBase: string,
  subjects: string[],
  subjectLabel = subjects.length > 1 ? 'Veículos' : 'Veículo',
): ReportDocument {
  return {
    title,
    fileBase,
    customer: ctx.customer,
    subjects,
    subjectLabel,
    beginAt: ctx.beginAt,
    endAt: ctx.endAt,
    generatedAt: ctx.generatedAt,
    summary: [],
    tables: [],
    routes: [],
  };
}

const multi = (vehicles: unknown[], one: string, many: string) =>
  vehicles.length > 1 ? many : one;

/* ---------- trips and stops ---------- */

function tripColumns(withVehicle: boolean): Column[] {
  return [
    ...(withVehicle ? [{ header: 'Veículo', kind: 'text' as const, width: 24 }] : []),
    { header: 'Início', kind: 'datetime', width: 19 },
    { header: 'Fim', kind: 'datetime', width: 19 },
    { header: 'Origem', kind: 'text', width: 21 },
    { header: 'Destino', kind: 'text', width: 21 },
    { header: 'Distância (km)', kind: 'km', width: 14 },
    { header: 'Duração', kind: 'duration', width: 11 },
    { header: 'Vel. máxima (km/h)', kind: 'speed', width: 12 },
    { header: 'Vel. média (km/h)', kind: 'speed', width: 12 },
    { header: 'Motorista', kind: 'text', width: 22 },
  ];
}

function tripRow(trip: Trip, vehicle?: string): Cell[] {
  return [
    ...(vehicle !== undefined ? [vehicle] : []),
    when(trip.startTime),
    when(trip.endTime),
    place(trip.startLatitude, trip.startLongitude),
    place(trip.endLatitude, trip.endLongitude),
    trip.distance,
    trip.duration,
    trip.maxSpeed,
    trip.averageSpeed,
    `${trip.driverName ?? trip.driverRfid ?? ''}${trip.driverLicenseExpired ? ' (CNH vencida)' : ''}`,
  ];
}

function tripTotals(trips: Trip[], withVehicle: boolean): Cell[] {
  const distance = trips.reduce((s, t) => s + t.distance, 0);
  const duration = trips.reduce((s, t) => s + t.duration, 0);
  return [
    ...(withVehicle ? [null] : []),
    `Total: ${trips.length} ${trips.length === 1 ? 'viagem' : 'viagens'}`,
    null,
    null,
    null,
    distance,
    duration,
    trips.reduce((m, t) => Math.max(m, t.maxSpeed), 0),
    duration > 0 ? Math.round((distance / duration) * 36) / 10 : 0,
    null,
  ];
}

function stopColumns(withVehicle: boolean): Column[] {
  return [
    ...(withVehicle ? [{ header: 'Veículo', kind: 'text' as const, width: 24 }] : []),
    { header: 'Início', kind: 'datetime', width: 19 },
    { header: 'Fim', kind: 'datetime', width: 19 },
    { header: 'Local', kind: 'text', width: 21 },
    { header: 'Duração', kind: 'duration', width: 11 },
    { header: 'Ignição ligada', kind: 'duration', width: 13 },
  ];
}

function stopRow(stop: Stop, vehicle?: string): Cell[] {
  return [
    ...(vehicle !== undefined ? [vehicle] : []),
    when(stop.startTime),
    when(stop.endTime),
    place(stop.latitude, stop.longitude),
    stop.duration,
    stop.idleTime,
  ];
}

function stopTotals(stops: Stop[], withVehicle: boolean): Cell[] {
  return [
    ...(withVehicle ? [null] : []),
    `Total: ${stops.length} ${stops.length === 1 ? 'parada' : 'paradas'}`,
    null,
    null,
    stops.reduce((s, x) => s + x.duration, 0),
    stops.reduce((s, x) => s + (x.idleTime ?? 0), 0),
  ];
}

function routeOf(
  title: string,
  analysis: Awaited<ReturnType<typeof analyse>>,
  stops: Stop[],
  withTimes = false,
): Route {
  const s = analysis.samples;
  const points: Route['points'] = [];
  const times: Date[] = [];
  for (let i = analysis.first; i < analysis.end; i += 1) {
    points.push({ lon: s.lon[i] ?? 0, lat: s.lat[i] ?? 0 });
    if (withTimes) times.push(new Date(s.time[i] ?? 0));
  }
  return {
    title,
    points,
    times: withTimes ? times : undefined,
    stops: stops.map((stop) => ({
      lon: stop.longitude,
      lat: stop.latitude,
      label: 'Parada',
      start: when(stop.startTime),
      end: when(stop.endTime),
    })),
  };
}

export async function tripsDocument(
  ctx: DocumentContext,
  vehicles: VehicleRow[],
): Promise<ReportDocument> {
  const doc = base(
    ctx,
    'Relatório de jornadas',
    multi(vehicles, 'jornadas_relatorio', 'jornadas_veiculos_relatorio'),
    vehicles.map(vehicleText),
  );
  const many = vehicles.length > 1;
  const trips: Cell[][] = [];
  const stops: Cell[][] = [];
  const allTrips: Trip[] = [];
  const allStops: Stop[] = [];
  for (const vehicle of vehicles) {
    const analysis = await analyse(ctx.db, vehicle, ctx.beginAt, ctx.endAt);
    const names = vehicle.driverNames
      ? await driverNames(ctx.db, vehicle.clientId, [...new Set(tagsOf(analysis))])
      : new Map<string, TaggedDriver>();
    const j = journeysOf(analysis, vehicle.id, names);
    const label = many ? vehicle.plate : undefined;
    trips.push(...j.trips.map((t) => tripRow(t, label)));
    stops.push(...j.stops.map((s) => stopRow(s, label)));
    allTrips.push(...j.trips);
    allStops.push(...j.stops);
    if (vehicles.length <= 4)
      doc.routes.push(
        routeOf(many ? `Trajeto de ${vehicleText(vehicle)}` : 'Trajeto', analysis, j.stops),
      );
  }
  const distance = allTrips.reduce((s, t) => s + t.distance, 0);
  doc.summary = [
    ['Viagens', allTrips.length, 'integer'],
    ['Distância (km)', distance, 'km'],
    ['Tempo em movimento', allTrips.reduce((s, t) => s + t.duration, 0), 'duration'],
    ['Velocidade máxima (km/h)', allTrips.reduce((m, t) => Math.max(m, t.maxSpeed), 0), 'speed'],
    ['Paradas', allStops.length, 'integer'],
    ['Tempo parado', allStops.reduce((s, x) => s + x.duration, 0), 'duration'],
    ['Ignição ligada parado', allStops.reduce((s, x) => s + (x.idleTime ?? 0), 0), 'duration'],
  ];
  doc.tables.push(
    {
      title: 'Viagens',
      columns: tripColumns(many),
      rows: trips,
      totals: tripTotals(allTrips, many),
      empty: 'Nenhuma viagem no período.',
    },
    {
      title: 'Paradas',
      columns: stopColumns(many),
      rows: stops,
      totals: stopTotals(allStops, many),
      empty: 'Nenhuma parada no período.',
    },
  );
  return doc;
}

/* ---------- history ---------- */

const HISTORY_COLUMNS: Column[] = [
  { header: 'Data/hora', kind: 'datetime', width: 19 },
  { header: 'Latitude', kind: 'coordinate', width: 12 },
  { header: 'Longitude', kind: 'coordinate', width: 12 },
  { header: 'Velocidade (km/h)', kind: 'speed', width: 12 },
  { header: 'Direção (°)', kind: 'integer', width: 10 },
  { header: 'Ignição', kind: 'boolean', width: 9 },
  { header: 'Odômetro (km)', kind: 'km', width: 14 },
];

export async function historyDocument(
  ctx: DocumentContext,
  vehicles: VehicleRow[],
): Promise<ReportDocument> {
  const doc = base(
    ctx,
    'Relatório de histórico',
    multi(vehicles, 'historico_relatorio', 'historico_veiculos_relatorio'),
    vehicles.map(vehicleText),
  );
  let fixes = 0;
  let driven = 0;
  let stopsCount = 0;
  let maxSpeed = 0;
  for (const vehicle of vehicles) {
    const analysis = await analyse(ctx.db, vehicle, ctx.beginAt, ctx.endAt);
    const s = analysis.samples;
    const stops = analysis.stops.map((span) => stopOf(s, span, vehicle.id));
    doc.routes.push(
      routeOf(
        vehicles.length > 1 ? `Trajeto de ${vehicleText(vehicle)}` : 'Trajeto',
        analysis,
        stops,
        true,
      ),
    );
    const rows: Cell[][] = [];
    let top = 0;
    for (let i = analysis.first; i < analysis.end; i += 1) {
      const speed = s.speed[i] ?? Number.NaN;
      const course = s.course[i] ?? Number.NaN;
      const ignition = s.ignition[i];
      if (!Number.isNaN(speed)) top = Math.max(top, speed);
      rows.push([
        new Date(s.time[i] ?? 0),
        s.lat[i] ?? null,
        s.lon[i] ?? null,
        Number.isNaN(speed) ? null : speed,
        Number.isNaN(course) ? null : Math.round(course),
        ignition === 1 ? true : ignition === 0 ? false : null,
        s.odometer[i] ?? null,
      ]);
    }
    const count = analysis.end - analysis.first;
    const distance =
      count > 0 ? (s.odometer[analysis.end - 1] ?? 0) - (s.odometer[analysis.first] ?? 0) : 0;
    fixes += count;
    driven += distance;
    stopsCount += stops.length;
    maxSpeed = Math.max(maxSpeed, top);
    const suffix = vehicles.length > 1 ? ` — ${vehicle.plate}` : '';
    doc.tables.push(
      {
        title: `Posições${suffix}`,
        columns: HISTORY_COLUMNS,
        rows,
        totals: [`Total: ${count} posições`, null, null, top, null, null, distance],
        empty: 'Nenhuma posição no período.',
      },
      {
        title: `Paradas${suffix}`,
        columns: stopColumns(false),
        rows: stops.map((stop) => stopRow(stop)),
        totals: stopTotals(stops, false),
        empty: 'Nenhuma parada no período.',
      },
    );
  }
  doc.summary = [
    ['Posições', fixes, 'integer'],
    ['Distância (km)', driven, 'km'],
    ['Paradas', stopsCount, 'integer'],
    ['Velocidade máxima (km/h)', maxSpeed, 'speed'],
  ];
  return doc;
}

/* ---------- positions (streamed) ---------- */

const POSITION_COLUMNS: Column[] = [
  { header: 'Data/hora', kind: 'datetime', width: 19 },
  { header: 'Recebida em', kind: 'datetime', width: 19 },
  { header: 'Latitude', kind: 'coordinate', width: 12 },
  { header: 'Longitude', kind: 'coordinate', width: 12 },
  { header: 'Velocidade (km/h)', kind: 'speed', width: 12 },
  { header: 'Direção (°)', kind: 'integer', width: 10 },
  { header: 'Altitude (m)', kind: 'integer', width: 10 },
  { header: 'Ignição', kind: 'boolean', width: 9 },
  { header: 'Bateria', kind: 'speed', width: 9 },
  { header: 'Odômetro (km)', kind: 'km', width: 14 },
  { header: 'Motorista', kind: 'text', width: 22 },
];

interface PositionLine {
  fixTime: string;
  receivedAt: string;
  latitude: number;
  longitude: number;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  ignition: boolean | null;
  battery: number | null;
  odometer: number;
  driverRfid: string | null;
  driverName: string | null;
}

export async function positionsDocument(
  ctx: DocumentContext,
  vehicles: VehicleRow[],
): Promise<ReportDocument> {
  const doc = base(
    ctx,
    'Relatório de posições',
    multi(vehicles, 'posicoes_relatorio', 'posicoes_veiculos_relatorio'),
    vehicles.map(vehicleText),
  );
  for (const vehicle of vehicles) {
    const totals: Cell[] = ['Total', null, null, null, 0, null, null, null, null, 0, null];
    let first: number | undefined;
    let count = 0;
    async function* rows(): AsyncGenerator<Cell[]> {
      for await (const chunk of positionLines(
        ctx.db,
        vehicle,
        ctx.beginAt.getTime(),
        ctx.endAt.getTime(),
      )) {
        for (const line of chunk.split('\n')) {
          const p = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as PositionLine;
          first ??= p.odometer;
          count += 1;
          totals[0] = `Total: ${count} posições`;
          totals[4] = Math.max(Number(totals[4]), p.speed ?? 0);
          totals[9] = p.odometer - first;
          yield [
            when(p.fixTime),
            when(p.receivedAt),
            p.latitude,
            p.longitude,
            p.speed,
            p.course === null ? null : Math.round(p.course),
            p.altitude === null ? null : Math.round(p.altitude),
            p.ignition,
            p.battery,
            p.odometer,
            p.driverName ?? p.driverRfid ?? '',
          ];
        }
      }
    }
    doc.tables.push({
      title: vehicles.length > 1 ? `Posições — ${vehicle.plate}` : 'Posições',
      columns: POSITION_COLUMNS,
      rows: rows(),
      totals,
      empty: 'Nenhuma posição no período.',
    });
  }
  return doc;
}

/* ---------- distances per day ---------- */

export async function distanceDocument(
  ctx: DocumentContext,
  vehicles: VehicleRow[],
): Promise<ReportDocument> {
  const doc = base(
    ctx,
    'Relatório de distâncias percorridas',
    multi(vehicles, 'distancia_relatorio', 'distancia_veiculos_relatorio'),
    vehicles.map(vehicleText),
  );
  const reports = await distanceReports(ctx.db, vehicles, ctx.beginAt, ctx.endAt);
  const rows: Cell[][] = [];
  let total = 0;
  let fixes = 0;
  let top = 0;
  for (const report of reports) {
    for (const [day, r] of Object.entries(report.dailyResults)) {
      rows.push([
        report.plate,
        day,
        r.distance,
        r.fixes,
        r.maxSpeed,
        r.firstFix ? when(r.firstFix) : null,
        r.lastFix ? when(r.lastFix) : null,
      ]);
      fixes += r.fixes;
      top = Math.max(top, r.maxSpeed ?? 0);
    }
    total += report.distance;
  }
  doc.summary = [
    ['Distância (km)', total, 'km'],
    ['Veículos', vehicles.length, 'integer'],
    ['Dias', reports[0] ? Object.keys(reports[0].dailyResults).length : 0, 'integer'],
  ];
  doc.tables.push({
    title: 'Distância por dia',
    columns: [
      { header: 'Veículo', kind: 'text', width: 14 },
      { header: 'Dia', kind: 'date', width: 12 },
      { header: 'Distância (km)', kind: 'km', width: 14 },
      { header: 'Posições', kind: 'integer', width: 10 },
      { header: 'Vel. máxima (km/h)', kind: 'speed', width: 12 },
      { header: 'Primeira posição', kind: 'datetime', width: 19 },
      { header: 'Última posição', kind: 'datetime', width: 19 },
    ],
    rows,
    totals: ['Total', null, total, fixes, top, null, null],
    empty: 'Nenhuma distância no período.',
  });
  return doc;
}

/* ---------- drivers ---------- */

export async function driversDocument(
  ctx: DocumentContext,
  drivers: DriverRow[],
  clientIds: string[],
  format: 'excel' | 'pdf',
): Promise<ReportDocument> {
  const doc = base(
    ctx,
    'Relatório de motoristas',
    format === 'pdf' ? 'relatorio_de_motorista' : 'relatorio_de_motoristas',
    drivers.map((d) => d.completName),
    drivers.length > 1 ? 'Motoristas' : 'Motorista',
  );
  const reports: DriverReport[] = [];
  for (const driver of drivers)
    reports.push(await driverReport(ctx.db, driver, clientIds, ctx.beginAt, ctx.endAt));
  const trips = reports.flatMap((r) => r.trips.map((t) => ({ ...t, driver: r.name })));
  doc.summary = [
    ['Motoristas', reports.length, 'integer'],
    ['Viagens', trips.length, 'integer'],
    ['Distância (km)', trips.reduce((s, t) => s + t.distance, 0), 'km'],
    ['Tempo ao volante', trips.reduce((s, t) => s + t.duration, 0), 'duration'],
  ];
  doc.tables.push(
    {
      title: 'Por motorista',
      columns: [
        { header: 'Motorista', kind: 'text', width: 26 },
        { header: 'RFID', kind: 'text', width: 14 },
        { header: 'Viagens', kind: 'integer', width: 9 },
        { header: 'Distância (km)', kind: 'km', width: 14 },
        { header: 'Tempo ao volante', kind: 'duration', width: 14 },
        { header: 'Veículos', kind: 'text', width: 30 },
      ],
      rows: reports.map((r) => [
        r.name,
        r.rfid ?? '',
        r.trips.length,
        r.distance,
        r.drivingTime,
        r.vehicles.map((v) => v.plate).join(', '),
      ]),
      totals: [
        'Total',
        null,
        trips.length,
        trips.reduce((s, t) => s + t.distance, 0),
        trips.reduce((s, t) => s + t.duration, 0),
        null,
      ],
    },
    {
      title: 'Viagens',
      columns: [
        { header: 'Motorista', kind: 'text', width: 22 },
        { header: 'Veículo', kind: 'text', width: 12 },
        ...tripColumns(false).slice(0, 8),
      ],
      rows: trips.map((t) => [t.driver, t.plate, ...tripRow(t).slice(0, 8)]),
      totals: (() => {
        const t = tripTotals(trips, false);
        return [t[0] ?? null, null, null, ...t.slice(1, 8)];
      })(),
      empty: 'Nenhuma viagem no período.',
    },
  );
  return doc;
}

/* ---------- one-page summary (light_final_report) ---------- */

export async function summaryDocument(
  ctx: DocumentContext,
  vehicles: VehicleRow[],
): Promise<ReportDocument> {
  const doc = base(
    ctx,
    'Resumo do veículo',
    multi(vehicles, 'resumo_relatorio', 'resumo_veiculos_relatorio'),
    vehicles.map(vehicleText),
  );
  const rows: Cell[][] = [];
  const sums = { distance: 0, trips: 0, driving: 0, stops: 0, stopTime: 0, idle: 0, top: 0 };
  for (const vehicle of vehicles) {
    const s = await summaryReport(ctx.db, ctx.alerts, vehicle, ctx.beginAt, ctx.endAt);
    const alerts = Object.entries(s.alertsByType)
      .map(([type, n]) => `${ALERT_TYPE_LABELS[type as AlertType] ?? type}: ${n}`)
      .join('; ');
    rows.push([
      vehicleText(vehicle),
      s.distance,
      s.trips,
      s.drivingTime,
      s.stops,
      s.stopTime,
      s.idleTime,
      s.maxSpeed,
      s.averageSpeed,
      alerts,
    ]);
    sums.distance += s.distance;
    sums.trips += s.trips;
    sums.driving += s.drivingTime;
    sums.stops += s.stops;
    sums.stopTime += s.stopTime;
    sums.idle += s.idleTime;
    sums.top = Math.max(sums.top, s.maxSpeed);
  }
  doc.summary = [
    ['Distância (km)', sums.distance, 'km'],
    ['Viagens', sums.trips, 'integer'],
    ['Tempo dirigindo', sums.driving, 'duration'],
    ['Velocidade máxima (km/h)', sums.top, 'speed'],
  ];
  doc.tables.push({
    title: 'Resumo por veículo',
    columns: [
      { header: 'Veículo', kind: 'text', width: 26 },
      { header: 'Distância (km)', kind: 'km', width: 13 },
      { header: 'Viagens', kind: 'integer', width: 8 },
      { header: 'Tempo dirigindo', kind: 'duration', width: 12 },
      { header: 'Paradas', kind: 'integer', width: 8 },
      { header: 'Tempo parado', kind: 'duration', width: 12 },
      { header: 'Ocioso', kind: 'duration', width: 10 },
      { header: 'Vel. máx. (km/h)', kind: 'speed', width: 11 },
      { header: 'Vel. média (km/h)', kind: 'speed', width: 11 },
      { header: 'Alertas', kind: 'text', width: 30 },
    ],
    rows,
    totals: [
      'Total',
      sums.distance,
      sums.trips,
      sums.driving,
      sums.stops,
      sums.stopTime,
      sums.idle,
      sums.top,
      null,
      null,
    ],
  });
  return doc;
}

/* ---------- geofences ---------- */

/** One visit of a vehicle to a geofence (the geofence report the lead asked for). */
export interface GeofenceVisitRow {
  plate: string;
  vehicleName: string;
  geofenceName: string;
  enteredAt: Date | null;
  exitedAt: Date | null;
  /** Seconds inside. */
  duration: number | null;
}

export function geofenceDocument(
  ctx: DocumentContext,
  subjects: string[],
  visits: GeofenceVisitRow[],
): ReportDocument {
  const doc = base(
    ctx,
    'Relatório de cercas geográficas',
    'relatorio_de_cercas_geograficas',
    subjects,
  );
  const inside = visits.reduce((s, v) => s + (v.duration ?? 0), 0);
  doc.summary = [
    ['Visitas', visits.length, 'integer'],
    ['Tempo dentro', inside, 'duration'],
  ];
  doc.tables.push({
    title: 'Visitas às cercas',
    columns: [
      { header: 'Veículo', kind: 'text', width: 24 },
      { header: 'Cerca', kind: 'text', width: 24 },
      { header: 'Entrada', kind: 'datetime', width: 19 },
      { header: 'Saída', kind: 'datetime', width: 19 },
      { header: 'Tempo dentro', kind: 'duration', width: 13 },
    ],
    rows: visits.map((v) => [
      `${v.plate} — ${v.vehicleName}`,
      v.geofenceName,
      v.enteredAt,
      v.exitedAt,
      v.duration,
    ]),
    totals: [`Total: ${visits.length} visitas`, null, null, null, inside],
    empty: 'Nenhuma visita no período.',
  });
  return doc;
}

/**
 * Fleet costs of the São Paulo months the period touches (whole months: costs are kept by
 * month), of the vehicles named or, with none, of every vehicle of the customers.
 */
async function fleetCostsOfPeriod(
  ctx: DocumentContext,
  vehicles: VehicleRow[],
  clientIds: string[],
): Promise<ReportDocument> {
  const from = reportDay(ctx.beginAt).slice(0, 7);
  const to = reportDay(ctx.endAt.getTime() - 1).slice(0, 7);
  const ids = vehicles.map((v) => v.id);
  const costs = await fleetCosts(ctx.db, clientIds, {
    from,
    to,
    ...(ids.length > 0 ? { vehicleIds: ids } : {}),
  });
  return fleetCostDocument(costs, ctx.customer, from, to, ctx.generatedAt);
}

/** The document of a report type (the reports list's requests and the automated reports). */
export function documentFor(
  type: ReportType,
  ctx: DocumentContext,
  subjects: { vehicles: VehicleRow[]; drivers: DriverRow[]; clientIds: string[] },
  format: 'excel' | 'pdf',
): Promise<ReportDocument> {
  switch (type) {
    case 'HISTORY':
      return historyDocument(ctx, subjects.vehicles);
    case 'POSITIONS':
      return positionsDocument(ctx, subjects.vehicles);
    case 'TRIPS':
      return tripsDocument(ctx, subjects.vehicles);
    case 'DISTANCE':
      return distanceDocument(ctx, subjects.vehicles);
    case 'DRIVERS':
      return driversDocument(ctx, subjects.drivers, subjects.clientIds, format);
    case 'FLEET_COSTS':
      return fleetCostsOfPeriod(ctx, subjects.vehicles, subjects.clientIds);
    case 'JORNADA':
      return companyJornadaDocument(ctx, subjects.drivers);
    case 'DRIVING':
      // The ranking is monthly: the month of the period's last day, so far (a weekly rule
      // sends the month to date), of the customers' drivers, scored with the weights of the
      // company it is for (the root of the subtree, which subtreeIds lists first).
      return (
        subjects.clientIds[0]
          ? drivingSettingsOf(ctx.db, subjects.clientIds[0])
          : Promise.resolve(DEFAULT_SCORING)
      )
        .then((settings) =>
          drivingReport(ctx.db, subjects.clientIds, monthOf(ctx.endAt.getTime() - 1), settings),
        )
        .then((report) => drivingDocument(report, ctx.customer, ctx.generatedAt));
    default:
      return summaryDocument(ctx, subjects.vehicles);
  }
}

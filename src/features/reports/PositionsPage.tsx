/**
 * Posições (/reports/positions): every stored position of a vehicle over a period, with every
 * attribute, in a virtualised table (a month at one fix every 10 s is 268,000 rows), filtered
 * by ignition, minimum speed and text (driver, attributes). The positions arrive as a stream:
 * the screen counts them as they come.
 */
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import {
  Cell,
  Column,
  Row,
  Table,
  TableBody,
  TableHeader,
  TableLayout,
  Virtualizer,
} from 'react-aria-components';
import { keys } from '../../api/keys';
import { reportsApi } from '../../api/reports';
import type { PositionRow } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { ROUTE_LABELS, t } from '../../i18n/pt-BR';
import { formatDateTime, periodOf } from '../../lib/day-range';
import { formatMileage } from '../../lib/format';
import { INTERVAL_LIMITS } from '../../lib/report-period';
import { matchesSearch, searchable } from '../../lib/text';
import { SearchInput } from '../../ui/SearchInput';
import { Select } from '../../ui/Select';
import { EmptyState, Loading } from '../../ui/States';
import { TextField } from '../../ui/TextField';
import { ReportFilters } from './ReportFilters';
import { ReportPaused } from './ReportPaused';
import { useReportParams } from './useReportParams';

const number = (value: number | null, digits = 0) =>
  value === null ? '-' : value.toLocaleString('pt-BR', { maximumFractionDigits: digits });

const COLUMNS: { id: string; label: string; width?: number; render: (p: PositionRow) => string }[] =
  [
    { id: 'fixTime', label: 'Horário', width: 200, render: (p) => formatDateTime(p.fixTime) },
    // What a person reads first comes first (a phone shows two columns): speed and ignition,
    // then where; the time the server received it, a technical detail, near the end.
    { id: 'speed', label: 'Velocidade (km/h)', width: 200, render: (p) => number(p.speed, 1) },
    {
      id: 'ignition',
      label: 'Ignição',
      render: (p) => (p.ignition === null ? '-' : p.ignition ? t.reports.on : t.reports.off),
    },
    { id: 'latitude', label: 'Latitude', render: (p) => p.latitude.toFixed(6) },
    { id: 'longitude', label: 'Longitude', render: (p) => p.longitude.toFixed(6) },
    { id: 'course', label: 'Direção (°)', render: (p) => number(p.course) },
    { id: 'altitude', label: 'Altitude (m)', render: (p) => number(p.altitude) },
    { id: 'accuracy', label: 'Precisão (m)', width: 140, render: (p) => number(p.accuracy) },
    { id: 'battery', label: 'Bateria (%)', render: (p) => number(p.battery) },
    {
      id: 'odometer',
      label: 'Hodômetro (km)',
      width: 150,
      render: (p) => formatMileage(p.odometer),
    },
    {
      id: 'driver',
      label: 'Motorista',
      width: 220,
      render: (p) => p.driverName ?? p.driverRfid ?? '-',
    },
    {
      id: 'receivedAt',
      label: 'Recebida',
      width: 200,
      render: (p) => formatDateTime(p.receivedAt),
    },
    {
      id: 'attributes',
      label: 'Atributos',
      width: 320,
      render: (p) =>
        p.attributes && Object.keys(p.attributes).length ? JSON.stringify(p.attributes) : '-',
    },
  ];

export function PositionsPage() {
  const { choice, submitted, choose } = useReportParams();
  const [received, setReceived] = useState(0);
  const [search, setSearch] = useState('');
  const [ignition, setIgnition] = useState('all');
  const [minSpeed, setMinSpeed] = useState('');
  const vehicleId = choice.ids[0];
  const period = periodOf(choice.range);
  const query = useQuery({
    queryKey: keys.report('positions', choice.ids, period.beginAt, period.endAt),
    queryFn: ({ signal }) => {
      setReceived(0);
      return reportsApi.positions(vehicleId ?? '', period, (p) => setReceived(p.rows), signal);
    },
    enabled: submitted && Boolean(vehicleId),
    staleTime: 60_000,
  });
  useErrorToast(query.error, t.reports.fetchError);
  const all = query.data;
  const indexed = useMemo(
    () =>
      (all ?? []).map((p, i) => ({
        ...p,
        id: String(i),
        text: searchable(
          `${p.driverName ?? ''} ${p.driverRfid ?? ''} ${JSON.stringify(p.attributes ?? {})}`,
        ),
      })),
    [all],
  );
  const filters = useDeferredValue({ search, ignition, minSpeed: Number(minSpeed) || 0 });
  const rows = useMemo(
    () =>
      indexed.filter(
        (p) =>
          (filters.ignition === 'all' || String(p.ignition) === filters.ignition) &&
          (p.speed ?? 0) >= filters.minSpeed &&
          (!filters.search.trim() || matchesSearch(p.text, filters.search)),
      ),
    [indexed, filters],
  );
  return (
    <section className="page page-report page-positions" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{ROUTE_LABELS.positions}</h1>
      </div>
      <ReportFilters
        maxHours={INTERVAL_LIMITS.points}
        initial={choice}
        onSubmit={choose}
        busy={query.isFetching}
      />
      {query.isFetching && <Loading label={t.reports.received(received)} />}
      <ReportPaused query={query} />
      {!submitted && <EmptyState title={t.reports.chooseVehicle} />}
      {all && !query.isFetching && all.length === 0 && <EmptyState title={t.reports.emptyPeriod} />}
      {all && all.length > 0 && (
        <>
          <fieldset className="positions-filters" aria-label={t.reports.filter}>
            <SearchInput
              label="Buscar posição"
              placeholder="Motorista ou atributo"
              value={search}
              onChange={setSearch}
            />
            <Select
              label={t.reports.ignition}
              options={[
                { label: t.reports.allIgnition, value: 'all' },
                { label: t.reports.on, value: 'true' },
                { label: t.reports.off, value: 'false' },
              ]}
              value={ignition}
              onChange={setIgnition}
            />
            <TextField
              label={t.reports.minSpeed}
              type="number"
              inputMode="numeric"
              value={minSpeed}
              onChange={setMinSpeed}
            />
            <p className="muted" aria-live="polite">
              {t.reports.shown(rows.length, all.length)}
            </p>
            <p className="muted phone-hint">{t.reports.swipeColumns}</p>
          </fieldset>
          <Virtualizer layout={TableLayout} layoutOptions={{ rowHeight: 34, headingHeight: 38 }}>
            <Table aria-label={ROUTE_LABELS.positions} className="positions-table">
              <TableHeader columns={COLUMNS}>
                {(column) => (
                  <Column
                    id={column.id}
                    isRowHeader={column.id === 'fixTime'}
                    width={column.width ?? 130}
                  >
                    {column.label}
                  </Column>
                )}
              </TableHeader>
              <TableBody
                items={rows}
                renderEmptyState={() => (
                  <p className="table-empty">Nenhuma posição com esses filtros.</p>
                )}
              >
                {(row) => (
                  <Row id={row.id} columns={COLUMNS}>
                    {(column) => <Cell>{column.render(row)}</Cell>}
                  </Row>
                )}
              </TableBody>
            </Table>
          </Virtualizer>
        </>
      )}
    </section>
  );
}

/**
 * Posições (/reports/positions): every stored position of a vehicle over a period, with every
 * attribute, in a virtualised table (a month at one fix every 10 s is 268,000 rows), filtered
 * by ignition, minimum speed and text (driver, attributes). The positions arrive as a stream:
 * the screen counts them as they come.
 */

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
import { reportsApi } from '../../api/reports';
import type { PositionRow } from '../../contract';
import { ROUTE_LABELS, t } from '../../i18n/pt-BR';
import { reportsText } from '../../i18n/reports';
import { formatDateTime } from '../../lib/day-range';
import { formatMileage } from '../../lib/format';
import { matchesSearch, searchable } from '../../lib/text';
import { SearchInput } from '../../ui/SearchInput';
import { Select } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import { StreamedReportPage, useStreamedReport } from './StreamedReport';
import '../../ui/DataTable.css';
import '../../ui/page.css';
import '../../ui/text.css';
import './PositionsPage.css';

const number = (value: number | null, digits = 0) =>
  value === null ? '-' : value.toLocaleString('pt-BR', { maximumFractionDigits: digits });

const COLUMNS: { id: string; label: string; width?: number; render: (p: PositionRow) => string }[] =
  [
    {
      id: 'fixTime',
      label: t.screens.positionsPage.horario,
      width: 200,
      render: (p) => formatDateTime(p.fixTime),
    },
    // What a person reads first comes first (a phone shows two columns): speed and ignition,
    // then where; the time the server received it, a technical detail, near the end.
    {
      id: 'speed',
      label: t.screens.positionsPage.velocidadeKmH,
      width: 200,
      render: (p) => number(p.speed, 1),
    },
    {
      id: 'ignition',
      label: t.screens.positionsPage.ignicao,
      render: (p) => (p.ignition === null ? '-' : p.ignition ? reportsText.on : reportsText.off),
    },
    {
      id: 'latitude',
      label: t.screens.positionsPage.latitude,
      render: (p) => p.latitude.toFixed(6),
    },
    {
      id: 'longitude',
      label: t.screens.positionsPage.longitude,
      render: (p) => p.longitude.toFixed(6),
    },
    { id: 'course', label: t.screens.positionsPage.direcao, render: (p) => number(p.course) },
    { id: 'altitude', label: t.screens.positionsPage.altitudeM, render: (p) => number(p.altitude) },
    {
      id: 'accuracy',
      label: t.screens.positionsPage.precisaoM,
      width: 140,
      render: (p) => number(p.accuracy),
    },
    { id: 'battery', label: t.screens.positionsPage.bateria, render: (p) => number(p.battery) },
    {
      id: 'odometer',
      label: t.screens.positionsPage.hodometroKm,
      width: 150,
      render: (p) => formatMileage(p.odometer),
    },
    {
      id: 'driver',
      label: t.screens.positionsPage.motorista,
      width: 220,
      render: (p) => p.driverName ?? p.driverRfid ?? '-',
    },
    {
      id: 'receivedAt',
      label: t.screens.positionsPage.recebida,
      width: 200,
      render: (p) => formatDateTime(p.receivedAt),
    },
    {
      id: 'attributes',
      label: t.screens.positionsPage.atributos,
      width: 320,
      render: (p) =>
        p.attributes && Object.keys(p.attributes).length ? JSON.stringify(p.attributes) : '-',
    },
  ];

export function PositionsPage() {
  const report = useStreamedReport('positions', reportsApi.positions);
  const [search, setSearch] = useState('');
  const [ignition, setIgnition] = useState('all');
  const [minSpeed, setMinSpeed] = useState('');
  const all = report.query.data;
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
    <StreamedReportPage
      title={ROUTE_LABELS.positions}
      className="page-positions"
      report={report}
      isEmpty={(positions) => positions.length === 0}
    >
      {(positions) => (
        <>
          <fieldset className="positions-filters" aria-label={reportsText.filter}>
            <SearchInput
              label={t.screens.positionsPage.buscarPosicao}
              placeholder={t.screens.positionsPage.motoristaOuAtributo}
              value={search}
              onChange={setSearch}
            />
            <Select
              label={reportsText.ignition}
              options={[
                { label: reportsText.allIgnition, value: 'all' },
                { label: reportsText.on, value: 'true' },
                { label: reportsText.off, value: 'false' },
              ]}
              value={ignition}
              onChange={setIgnition}
            />
            <TextField
              label={reportsText.minSpeed}
              type="number"
              inputMode="numeric"
              value={minSpeed}
              onChange={setMinSpeed}
            />
            <p className="muted" aria-live="polite">
              {reportsText.shown(rows.length, positions.length)}
            </p>
            <p className="muted phone-hint">{reportsText.swipeColumns}</p>
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
                  <p className="table-empty">{t.screens.positionsPage.nenhumaPosicaoComEsses}</p>
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
    </StreamedReportPage>
  );
}

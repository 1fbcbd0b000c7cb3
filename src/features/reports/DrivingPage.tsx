/**
 * Comportamento do motorista (/reports/driving): the month's ranking of a company's drivers
 * by their driving score, the change since the month before, the events of each (open a row)
 * and those of no identified driver, per vehicle. XLSX and PDF of the same report. The score's
 * weights are the company's ('Pesos da empresa').
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { drivingReport } from '../../api/driving';
import type { DrivingRow } from '../../contract';
import { DRIVING_EVENT_KINDS } from '../../contract/driving';
import { useErrorToast } from '../../hooks/feedback';
import { useSession } from '../../hooks/useSession';
import {
  DRIVING_EVENT_LABELS,
  DRIVING_EVENT_SHORT,
  drivingEventDetail,
  drivingText as t,
} from '../../i18n/driving';
import { formatDateTime } from '../../lib/day-range';
import { formatMileage } from '../../lib/format';
import { reportDay } from '../../lib/report-period';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { Button } from '../../ui/Button';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { Select } from '../../ui/Select';
import { EmptyState, Loading } from '../../ui/States';
import { DrivingWeights } from './DrivingWeights';
import { DownloadProgress, useFileDownload } from './FileDownload';
import '../../ui/DataTable.css';
import '../../ui/page.css';
import './DrivingPage.css';

/** The last twelve São Paulo months, newest first, as 'AAAA-MM' with their pt-BR names. */
function lastMonths(count = 12) {
  const [y = 0, m = 1] = reportDay(Date.now()).split('-').map(Number);
  return Array.from({ length: count }, (_, i) => {
    const index = y * 12 + m - 1 - i;
    const year = Math.floor(index / 12);
    const month = (index % 12) + 1;
    return {
      value: `${year}-${String(month).padStart(2, '0')}`,
      label: t.monthName(year, month),
    };
  });
}

function Trend({ delta }: { delta: number | null }) {
  if (delta === null) return <span className="driving-trend">{t.noPrevious}</span>;
  const kind = delta > 0 ? 'up' : delta < 0 ? 'down' : 'same';
  return (
    <span className={`driving-trend driving-trend-${kind}`}>
      {delta > 0 ? t.up(delta) : delta < 0 ? t.down(delta) : t.same}
    </span>
  );
}

export function ScoreBadge({ score }: { score: number | null }) {
  if (score === null) return <span className="driving-score driving-score-none">{t.noScore}</span>;
  const tone = score >= 80 ? 'good' : score >= 60 ? 'fair' : 'poor';
  return (
    <span className={`driving-score driving-score-${tone}`}>{score.toLocaleString('pt-BR')}</span>
  );
}

type Row = DrivingRow & { id: string; rank: number | null };

function EventsTable({ row }: { row: DrivingRow }) {
  const events = row.events.map((e, i) => ({ ...e, id: `${e.at}-${i}` }));
  return (
    <DataTable
      label={t.showEvents(row.name)}
      columns={[
        { id: 'at', label: t.at, rowHeader: true, render: (e) => formatDateTime(e.at) },
        { id: 'plate', label: t.vehicle, render: (e) => e.plate },
        { id: 'kind', label: t.kind, render: (e) => DRIVING_EVENT_LABELS[e.kind] },
        { id: 'detail', label: t.detail, render: (e) => drivingEventDetail(e) },
        { id: 'source', label: t.source, render: (e) => t.sources[e.source] },
      ]}
      rows={events}
      empty={t.noEvents}
    />
  );
}

export function DrivingPage() {
  const months = useMemo(() => lastMonths(), []);
  const [month, setMonth] = useState(months[0]?.value ?? '');
  const [clientId, setClientId] = useSelectedClient();
  const session = useSession();
  const [open, setOpen] = useState<string | null>(null);
  const query = useQuery({
    queryKey: ['reports', 'driving', month, clientId],
    queryFn: () => drivingReport(month, clientId),
    enabled: month !== '',
    staleTime: 60_000,
  });
  useErrorToast(query.error, t.loadError);
  const file = useFileDownload();
  const rows: Row[] = (query.data?.drivers ?? []).map((d, i) => ({
    ...d,
    id: d.driverId ?? d.name,
    rank: d.score === null ? null : i + 1,
  }));
  const unassigned: Row[] = (query.data?.unassigned ?? []).map((d) => ({
    ...d,
    id: d.name,
    rank: null,
  }));
  const columns = (ranked: boolean): ColumnDef<Row>[] => [
    ...(ranked ? [{ id: 'rank', label: t.rank, render: (r: Row) => r.rank ?? '—' }] : []),
    {
      id: 'name',
      label: ranked ? t.driver : t.vehicle,
      rowHeader: true,
      render: (r) => r.name,
    },
    { id: 'km', label: t.km, render: (r) => formatMileage(r.km * 1000) },
    ...(ranked
      ? [
          { id: 'score', label: t.score, render: (r: Row) => <ScoreBadge score={r.score} /> },
          { id: 'trend', label: t.trend, render: (r: Row) => <Trend delta={r.delta} /> },
        ]
      : []),
    ...DRIVING_EVENT_KINDS.map((kind) => ({
      id: kind,
      label: DRIVING_EVENT_SHORT[kind],
      render: (r: Row) => r.counts[kind] || '',
    })),
    {
      id: 'events',
      label: t.events,
      render: (r) =>
        r.events.length > 0 ? (
          <Button variant="secondary" onPress={() => setOpen(open === r.id ? null : r.id)}>
            {open === r.id ? t.hideEvents : `${r.events.length}`}
          </Button>
        ) : (
          ''
        ),
    },
  ];
  const opened = [...rows, ...unassigned].find((r) => r.id === open);
  const download = (format: 'excel' | 'pdf') =>
    void file.start('v2/download/driving', {
      month,
      format,
      ...(clientId ? { clientId } : {}),
    });
  return (
    <section className="page page-report driving-page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.title}</h1>
        <div className="driving-downloads">
          {/* The weights of the company the report is for: the one chosen, else one's own. */}
          <DrivingWeights clientId={clientId ?? session?.user.clientId ?? null} />
          <Button variant="secondary" onPress={() => download('excel')} isDisabled={!query.data}>
            {`${t.download} XLSX`}
          </Button>
          <Button variant="secondary" onPress={() => download('pdf')} isDisabled={!query.data}>
            {`${t.download} PDF`}
          </Button>
        </div>
      </div>
      <div className="driving-filters">
        <Select
          label={t.month}
          options={months}
          value={month}
          onChange={(value) => {
            setMonth(value);
            setOpen(null);
          }}
        />
        <CustomerPicker value={clientId} onChange={setClientId} />
      </div>
      {file.progress && <DownloadProgress progress={file.progress} onCancel={file.cancel} />}
      {query.data && (
        <p className="muted driving-how">
          {t.howScored(query.data.minKm, query.data.weights, query.data.idleMinutes)}
        </p>
      )}
      {query.isFetching && <Loading label={t.loading} />}
      {query.data && rows.length === 0 && <EmptyState title={t.none} />}
      {rows.length > 0 && (
        <DataTable label={t.title} columns={columns(true)} rows={rows} empty="" />
      )}
      {opened && opened.driverId !== null && <EventsTable row={opened} />}
      {unassigned.length > 0 && (
        <>
          <h2 className="driving-subtitle">{t.unassignedTitle}</h2>
          <p className="muted">{t.unassignedHint}</p>
          <DataTable
            label={t.unassignedTitle}
            columns={columns(false)}
            rows={unassigned}
            empty=""
          />
          {opened && opened.driverId === null && <EventsTable row={opened} />}
        </>
      )}
    </section>
  );
}

/**
 * The reports shown on the Relatórios screen itself: drivers (trips, distance, time at the
 * wheel, vehicles used) and the one-page vehicle summary (light_final_report).
 */
import { useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { reportsApi } from '../../api/reports';
import type { DriverReport, ReportRequest, Summary } from '../../contract';
import { REPORT_TYPE_LABELS } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';
import { reportsText } from '../../i18n/reports';
import { formatDateTime } from '../../lib/day-range';
import { formatDistance, formatDuration, formatWithUnit } from '../../lib/format';
import { Button } from '../../ui/Button';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { EmptyState, Loading } from '../../ui/States';
import { ReportPaused } from './ReportPaused';
import '../../ui/page.css';
import './reports.css';

const ALERT_LABELS: Record<string, string> = {
  OVERSPEED: t.screens.reportResults.excessoDeVelocidade,
  GEOFENCE_ENTER: t.screens.reportResults.entradaEmCerca,
  GEOFENCE_EXIT: t.screens.reportResults.saidaDeCerca,
  IGNITION_ON: t.screens.reportResults.ignicaoLigada,
  IGNITION_OFF: t.screens.reportResults.ignicaoDesligada,
};

function SummaryCard({ summary }: { summary: Summary }) {
  const alerts = Object.entries(summary.alertsByType);
  const title = `${summary.plate} | ${summary.name}`;
  return (
    <section className="report-section" aria-label={title}>
      <h3>{title}</h3>
      <dl className="report-totals">
        <div>
          <dt>{reportsText.distance}</dt>
          <dd>{formatDistance(summary.distance)}</dd>
        </div>
        <div>
          <dt>{reportsText.drivingTime}</dt>
          <dd>{formatDuration(summary.drivingTime)}</dd>
        </div>
        <div>
          <dt>{reportsText.idle}</dt>
          <dd>{formatDuration(summary.idleTime)}</dd>
        </div>
        <div>
          <dt>{reportsText.trips}</dt>
          <dd>{summary.trips}</dd>
        </div>
        <div>
          <dt>{reportsText.stops}</dt>
          <dd>{summary.stops}</dd>
        </div>
        <div>
          <dt>{reportsText.maxSpeed}</dt>
          <dd>{formatWithUnit(summary.maxSpeed, 'km/h')}</dd>
        </div>
        <div>
          <dt>{reportsText.averageSpeed}</dt>
          <dd>{formatWithUnit(summary.averageSpeed, 'km/h')}</dd>
        </div>
        <div>
          <dt>{reportsText.alerts}</dt>
          <dd>
            {alerts.length
              ? alerts.map(([type, n]) => `${ALERT_LABELS[type] ?? type}: ${n}`).join(' · ')
              : reportsText.noAlerts}
          </dd>
        </div>
      </dl>
    </section>
  );
}

type DriverTripRow = DriverReport['trips'][number] & { id: string };

function DriverCard({ report }: { report: DriverReport }) {
  const rows: DriverTripRow[] = report.trips.map((trip, i) => ({ ...trip, id: String(i) }));
  const columns: ColumnDef<DriverTripRow>[] = [
    {
      id: 'start',
      label: reportsText.start,
      rowHeader: true,
      render: (r) => formatDateTime(r.startTime),
    },
    { id: 'end', label: reportsText.end, render: (r) => formatDateTime(r.endTime) },
    { id: 'vehicle', label: reportsText.vehicle, render: (r) => `${r.plate} | ${r.vehicleName}` },
    { id: 'duration', label: reportsText.duration, render: (r) => formatDuration(r.duration) },
    { id: 'distance', label: reportsText.distance, render: (r) => formatDistance(r.distance) },
    { id: 'speed', label: reportsText.maxSpeed, render: (r) => formatWithUnit(r.maxSpeed, 'km/h') },
  ];
  return (
    <section className="report-section" aria-label={report.name}>
      <h3>{report.rfid ? `${report.name} (${report.rfid})` : report.name}</h3>
      <dl className="report-totals">
        <div>
          <dt>{reportsText.trips}</dt>
          <dd>{report.trips.length}</dd>
        </div>
        <div>
          <dt>{reportsText.distance}</dt>
          <dd>{formatDistance(report.distance)}</dd>
        </div>
        <div>
          <dt>{reportsText.drivingTime}</dt>
          <dd>{formatDuration(report.drivingTime)}</dd>
        </div>
        <div>
          <dt>{reportsText.vehicles}</dt>
          <dd>{report.vehicles.map((v) => v.plate).join(', ') || '-'}</dd>
        </div>
      </dl>
      <DataTable
        label={`${reportsText.trips}: ${report.name}`}
        columns={columns}
        rows={rows}
        empty={reportsText.emptyTrips}
      />
    </section>
  );
}

/**
 * The type and the name, once: a name given by the server already starts with the type
 * ('Resumo do veículo de 01/11/2026 a 07/11/2026'), one typed by the user may not.
 */
export function resultsTitle(reportType: keyof typeof REPORT_TYPE_LABELS, name: string): string {
  const label = REPORT_TYPE_LABELS[reportType];
  const said =
    name.toLocaleLowerCase('pt-BR').startsWith(label.toLocaleLowerCase('pt-BR')) &&
    // The whole type, not the start of a longer word ('Históricos' is not 'Histórico').
    !/[\p{L}\p{N}]/u.test(name.charAt(label.length));
  return said ? name : `${label}: ${name}`;
}

export function ReportResults({
  request,
  onClose,
}: {
  request: ReportRequest;
  onClose: () => void;
}) {
  const period = { beginAt: request.beginAt, endAt: request.endAt };
  const drivers = request.reportType === 'DRIVERS';
  const ids = drivers ? request.driverIds : request.vehicleIds;
  const query = useQuery({
    queryKey: keys.report(request.reportType, ids, request.beginAt, request.endAt),
    queryFn: async () =>
      drivers
        ? { drivers: await reportsApi.drivers(ids, period), summaries: [] }
        : { drivers: [], summaries: await reportsApi.summaries(ids, period) },
  });
  useErrorToast(query.error, reportsText.fetchError);
  return (
    <section className="report-section report-results" aria-labelledby="results-title">
      <div className="page-header">
        <h2 id="results-title">{resultsTitle(request.reportType, request.name)}</h2>
        <Button variant="ghost" onPress={onClose}>
          {t.list.back}
        </Button>
      </div>
      {query.isFetching && <Loading label={reportsText.loading} />}
      <ReportPaused query={query} />
      {query.data?.summaries.map((s) => (
        <SummaryCard key={s.vehicleId} summary={s} />
      ))}
      {query.data?.drivers.map((d) => (
        <DriverCard key={d.driverId} report={d} />
      ))}
      {query.data && query.data.drivers.length + query.data.summaries.length === 0 && (
        <EmptyState title={reportsText.emptyTrips} />
      )}
    </section>
  );
}

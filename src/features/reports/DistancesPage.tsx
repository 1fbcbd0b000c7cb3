/**
 * Distâncias Percorridas (/reports/distances): kilometres per São Paulo day for one or several
 * vehicles (the server's `dailyResults`, turned into a list of days), as a table with totals
 * and a bar chart.
 */

import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { keys } from '../../api/keys';
import { reportsApi } from '../../api/reports';
import type { DistanceReport } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { ROUTE_LABELS, t } from '../../i18n/pt-BR';
import { reportsText } from '../../i18n/reports';
import { formatDay, periodOf } from '../../lib/day-range';
import { formatMileage } from '../../lib/format';
import { INTERVAL_LIMITS } from '../../lib/report-period';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { EmptyState, Loading } from '../../ui/States';
import { ReportFilters } from './ReportFilters';
import { ReportPaused } from './ReportPaused';
import { useReportParams } from './useReportParams';
import '../../ui/page.css';
import './DistanceChart.css';

const DistanceChart = lazy(() =>
  import('./DistanceChart').then((m) => ({ default: m.DistanceChart })),
);

/** SPEC §3: dailyResults keyed by date, as a list of date and data. */
export function dailyList(report: DistanceReport) {
  return Object.entries(report.dailyResults)
    .map(([date, data]) => ({ date, data }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

type DayRow = { id: string; day: string; km: number[]; total: number };

export function DistancesPage() {
  const { choice, submitted, choose } = useReportParams();
  const period = periodOf(choice.range);
  const query = useQuery({
    queryKey: keys.report('distance', choice.ids, period.beginAt, period.endAt),
    queryFn: () => reportsApi.distance(choice.ids, period),
    enabled: submitted && choice.ids.length > 0,
    staleTime: 60_000,
  });
  useErrorToast(query.error, reportsText.fetchError);
  const reports = useMemo(() => query.data ?? [], [query.data]);
  const { days, rows, series, totals } = useMemo(() => {
    const lists = reports.map(dailyList);
    const allDays = lists[0]?.map((d) => d.date) ?? [];
    const dayRows: DayRow[] = allDays.map((day, i) => {
      const km = lists.map((list) => (list[i]?.data.distance ?? 0) / 1000);
      return { id: day, day, km, total: km.reduce((a, b) => a + b, 0) };
    });
    const perVehicle = reports.map((r) => r.distance / 1000);
    return {
      days: allDays,
      rows: [
        ...dayRows,
        {
          id: 'total',
          day: reportsText.total,
          km: perVehicle,
          total: perVehicle.reduce((a, b) => a + b, 0),
        },
      ],
      series: reports.map((r, i) => ({ label: r.plate, km: dayRows.map((d) => d.km[i] ?? 0) })),
      totals: perVehicle,
    };
  }, [reports]);
  const columns: ColumnDef<DayRow>[] = [
    {
      id: 'day',
      label: reportsText.day,
      rowHeader: true,
      render: (r) => (r.id === 'total' ? <strong>{r.day}</strong> : formatDay(r.day)),
    },
    ...reports.map((report, i) => ({
      id: report.vehicleId,
      label: `${report.plate} (km)`,
      render: (r: DayRow) => formatMileage((r.km[i] ?? 0) * 1000),
    })),
    ...(reports.length > 1
      ? [
          {
            id: 'sum',
            label: `${reportsText.total} (km)`,
            render: (r: DayRow) => formatMileage(r.total * 1000),
          },
        ]
      : []),
  ];
  const empty = query.data && totals.every((km) => km === 0);
  return (
    <section className="page page-report" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{ROUTE_LABELS.distances}</h1>
      </div>
      <ReportFilters
        multiple
        maxHours={INTERVAL_LIMITS.totals}
        initial={choice}
        onSubmit={choose}
        busy={query.isFetching}
      />
      {query.isFetching && <Loading label={reportsText.loading} />}
      <ReportPaused query={query} />
      {!submitted && <EmptyState title={reportsText.chooseVehicles} />}
      {empty && <EmptyState title={t.screens.distancesPage.nenhumQuilometroRodadoNo} />}
      {query.data && !empty && (
        <>
          <Suspense fallback={<div className="distance-chart" />}>
            <DistanceChart days={days} series={series} />
          </Suspense>
          <DataTable label={ROUTE_LABELS.distances ?? ''} columns={columns} rows={rows} empty="" />
        </>
      )}
    </section>
  );
}

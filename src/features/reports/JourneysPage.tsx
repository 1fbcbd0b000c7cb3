/**
 * Jornadas (/reports/journeys): the trips and stops of one or several vehicles over a period,
 * each vehicle with its totals, and a trip opened on the map (its own stretch of history).
 */

import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { keys } from '../../api/keys';
import { reportsApi } from '../../api/reports';
import type { Stop, Trip, TripsReport, TripTotals } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { useMapConfig } from '../../hooks/useMapConfig';
import { ROUTE_LABELS, t } from '../../i18n/pt-BR';
import { reportsText } from '../../i18n/reports';
import { formatCoordinates, formatDateTime, formatShort, periodOf } from '../../lib/day-range';
import { formatDistance, formatDuration, formatWithUnit } from '../../lib/format';
import { INTERVAL_LIMITS } from '../../lib/report-period';
import { BaseTiles } from '../../map/BaseTiles';
import { MapView } from '../../map/MapView';
import { MarkersLayer } from '../../map/MarkersLayer';
import { RouteLayer } from '../../map/RouteLayer';
import { Button } from '../../ui/Button';
import { type ColumnDef, DataTable } from '../../ui/DataTable';
import { Pagination, useRowsPage } from '../../ui/Pagination';
import { EmptyState, Loading } from '../../ui/States';
import { ReportFilters } from './ReportFilters';
import { ReportPaused } from './ReportPaused';
import { useReportParams } from './useReportParams';
import '../../ui/badge.css';
import '../../ui/page.css';
import '../../map/MapView.css';
import './reports.css';
import './JourneysPage.css';

/** Rows of one vehicle's table per page: a week of a busy vehicle is hundreds of rows. */
export const JOURNEY_PAGE_SIZES = [25, 50, 100, 200] as const;

type JourneyRow =
  | { id: string; kind: 'trip'; trip: Trip; at: string }
  | { id: string; kind: 'stop'; stop: Stop; at: string };

export function Totals({ totals, label }: { totals: TripTotals; label: string }) {
  return (
    <dl className="report-totals" aria-label={label}>
      <div>
        <dt>{reportsText.trips}</dt>
        <dd>{totals.trips}</dd>
      </div>
      <div>
        <dt>{reportsText.distance}</dt>
        <dd>{formatDistance(totals.distance)}</dd>
      </div>
      <div>
        <dt>{reportsText.drivingTime}</dt>
        <dd>{formatDuration(totals.drivingTime)}</dd>
      </div>
      <div>
        <dt>{reportsText.stops}</dt>
        <dd>{totals.stops}</dd>
      </div>
      <div>
        <dt>{reportsText.stopTime}</dt>
        <dd>{formatDuration(totals.stopTime)}</dd>
      </div>
      <div>
        <dt>{reportsText.idle}</dt>
        <dd>{formatDuration(totals.idleTime)}</dd>
      </div>
      <div>
        <dt>{reportsText.maxSpeed}</dt>
        <dd>{formatWithUnit(totals.maxSpeed, 'km/h')}</dd>
      </div>
    </dl>
  );
}

function sumTotals(reports: TripsReport[]): TripTotals {
  return reports.reduce<TripTotals>(
    (sum, r) => ({
      trips: sum.trips + r.totals.trips,
      distance: sum.distance + r.totals.distance,
      drivingTime: sum.drivingTime + r.totals.drivingTime,
      stops: sum.stops + r.totals.stops,
      stopTime: sum.stopTime + r.totals.stopTime,
      idleTime: sum.idleTime + r.totals.idleTime,
      maxSpeed: Math.max(sum.maxSpeed, r.totals.maxSpeed),
    }),
    { trips: 0, distance: 0, drivingTime: 0, stops: 0, stopTime: 0, idleTime: 0, maxSpeed: 0 },
  );
}

function TripMap({ trip, label }: { trip: Trip; label: string }) {
  const baseMap = useMapConfig();
  const period = {
    beginAt: trip.startTime,
    endAt: new Date(Date.parse(trip.endTime) + 1000).toISOString(),
  };
  const query = useQuery({
    queryKey: keys.report('history', [trip.vehicleId], period.beginAt, period.endAt),
    queryFn: ({ signal }) => reportsApi.history(trip.vehicleId, period, undefined, signal),
    staleTime: 5 * 60_000,
  });
  const markers = useMemo(
    () => [
      {
        id: 'start',
        latitude: trip.startLatitude,
        longitude: trip.startLongitude,
        color: '#16a34a',
        text: 'I',
      },
      {
        id: 'end',
        latitude: trip.endLatitude,
        longitude: trip.endLongitude,
        color: '#b3261e',
        text: 'F',
      },
    ],
    [trip],
  );
  return (
    <section className="report-section" aria-label={label}>
      <h2>{label}</h2>
      {query.isFetching && <Loading label={reportsText.loading} />}
      <ReportPaused query={query} />
      <MapView label={reportsText.tripMap} className="map trip-map" id="trip-map">
        <BaseTiles config={baseMap} />
        {query.data && <RouteLayer points={query.data.positions} />}
        <MarkersLayer markers={markers} />
      </MapView>
    </section>
  );
}

function VehicleJourneys({
  report,
  onOpen,
}: {
  report: TripsReport;
  onOpen: (trip: Trip, label: string) => void;
}) {
  const rows = useMemo<JourneyRow[]>(
    () =>
      [
        ...report.trips.map((trip, i) => ({
          id: `t${i}`,
          kind: 'trip' as const,
          trip,
          at: trip.startTime,
        })),
        ...report.stops.map((stop, i) => ({
          id: `s${i}`,
          kind: 'stop' as const,
          stop,
          at: stop.startTime,
        })),
      ].sort((a, b) => (a.at < b.at ? -1 : 1)),
    [report],
  );
  const [limit, setLimit] = useState(50);
  // Another period (another report) starts again at its first page.
  const { page, rows: shown, setPage } = useRowsPage(rows, limit, report);
  const section = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  /**
   * Another page: its title and first row in view, and the focus on the title (not left on
   * the pager far below), so that a screen reader reads the new page from its start.
   */
  const turn = (next: number) => {
    setPage(next);
    section.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  };
  const title = `${report.plate} | ${report.name}`;
  const columns: ColumnDef<JourneyRow>[] = [
    {
      id: 'kind',
      label: t.screens.journeysPage.tipo,
      rowHeader: true,
      render: (r) => (
        <span className={`journey-kind journey-kind-${r.kind}`}>
          {r.kind === 'trip' ? reportsText.trip : reportsText.stop}
        </span>
      ),
    },
    { id: 'start', label: reportsText.start, render: (r) => formatShort(r.at) },
    {
      id: 'end',
      label: reportsText.end,
      render: (r) => formatShort(r.kind === 'trip' ? r.trip.endTime : r.stop.endTime),
    },
    {
      id: 'duration',
      label: reportsText.duration,
      render: (r) => formatDuration(r.kind === 'trip' ? r.trip.duration : r.stop.duration),
    },
    {
      id: 'distance',
      label: reportsText.distance,
      render: (r) => (r.kind === 'trip' ? formatDistance(r.trip.distance) : '-'),
    },
    {
      id: 'speed',
      label: t.screens.journeysPage.velMaxMedia,
      render: (r) =>
        r.kind === 'trip'
          ? `${Math.round(r.trip.maxSpeed)} / ${Math.round(r.trip.averageSpeed)} km/h`
          : '-',
    },
    {
      id: 'detail',
      label: t.screens.journeysPage.motoristaMotorLigado,
      render: (r) =>
        r.kind === 'trip' ? (
          <>
            {r.trip.driverName ?? r.trip.driverRfid ?? '-'}
            {r.trip.driverLicenseExpired && (
              <>
                {' '}
                <span className="badge badge-danger">{t.screens.drivers.cnhVencida}</span>
              </>
            )}
          </>
        ) : r.stop.idleTime === null ? (
          '-'
        ) : (
          formatDuration(r.stop.idleTime)
        ),
    },
    {
      id: 'place',
      label: `${reportsText.place} (chegada)`,
      render: (r) =>
        r.kind === 'trip'
          ? `${formatCoordinates(r.trip.endLatitude, r.trip.endLongitude)}`
          : formatCoordinates(r.stop.latitude, r.stop.longitude),
    },
    {
      id: 'actions',
      label: t.list.actions,
      render: (r) =>
        r.kind === 'trip' ? (
          <Button
            variant="ghost"
            onPress={() =>
              onOpen(r.trip, `${reportsText.trip} de ${title}, ${formatDateTime(r.trip.startTime)}`)
            }
          >
            {reportsText.openTrip}
          </Button>
        ) : null,
    },
  ];
  return (
    <section className="report-section" aria-label={title} ref={section}>
      <h2 ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <Totals totals={report.totals} label={`${reportsText.totals}: ${title}`} />
      <DataTable
        label={`${ROUTE_LABELS.journeys}: ${title}`}
        columns={columns}
        rows={shown}
        empty={reportsText.emptyTrips}
      />
      {rows.length > Math.min(...JOURNEY_PAGE_SIZES) && (
        <Pagination
          page={page}
          limit={limit}
          total={rows.length}
          sizes={[...JOURNEY_PAGE_SIZES]}
          label={`${t.list.paging}: ${title}`}
          onPageChange={turn}
          onLimitChange={(next) => {
            setLimit(next);
            setPage(1);
          }}
        />
      )}
    </section>
  );
}

export function JourneysPage() {
  const { choice, submitted, choose } = useReportParams();
  const period = periodOf(choice.range);
  const [open, setOpen] = useState<{ trip: Trip; label: string } | null>(null);
  const query = useQuery({
    queryKey: keys.report('trips', choice.ids, period.beginAt, period.endAt),
    queryFn: () => reportsApi.trips(choice.ids, period),
    enabled: submitted && choice.ids.length > 0,
    staleTime: 60_000,
  });
  useErrorToast(query.error, reportsText.fetchError);
  const reports = query.data ?? [];
  return (
    <section className="page page-report" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{ROUTE_LABELS.journeys}</h1>
      </div>
      <ReportFilters
        multiple
        maxHours={INTERVAL_LIMITS.points}
        initial={choice}
        onSubmit={(next) => {
          setOpen(null);
          choose(next);
        }}
        busy={query.isFetching}
      />
      {query.isFetching && <Loading label={reportsText.loading} />}
      <ReportPaused query={query} />
      {!submitted && <EmptyState title={reportsText.chooseVehicles} />}
      {query.data && reports.length > 1 && (
        <Totals
          totals={sumTotals(reports)}
          label={`${reportsText.totals}: ${reportsText.vehicles}`}
        />
      )}
      {open && <TripMap key={open.label} trip={open.trip} label={open.label} />}
      {reports.map((report) => (
        <VehicleJourneys
          key={report.vehicleId}
          report={report}
          onOpen={(trip, label) => {
            setOpen({ trip, label });
            window.scrollTo({ top: 0, behavior: 'smooth' });
          }}
        />
      ))}
    </section>
  );
}

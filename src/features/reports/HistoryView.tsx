/**
 * A vehicle's history: the route on the map coloured by speed with its stops, alerts, start
 * and end; the playback (play and pause, 1× to 32×, a timeline to scrub, follow the vehicle);
 * the speed chart under the map, whose cursor moves with the playback; the positions beside.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import {
  GridList,
  GridListItem,
  Label,
  ListLayout,
  type Selection,
  Slider,
  SliderOutput,
  SliderThumb,
  SliderTrack,
  ToggleButton,
  Virtualizer,
} from 'react-aria-components';
import type { HistoryReport } from '../../contract';
import { useMapConfig } from '../../hooks/useMapConfig';
import { t } from '../../i18n/pt-BR';
import { reportsText } from '../../i18n/reports';
import { formatDateTime, formatTime } from '../../lib/day-range';
import { formatDistance, formatDuration } from '../../lib/format';
import { BaseTiles } from '../../map/BaseTiles';
import { MapView } from '../../map/MapView';
import { type Marker, MarkersLayer } from '../../map/MarkersLayer';
import { PlaybackMarker } from '../../map/PlaybackMarker';
import { RouteLayer } from '../../map/RouteLayer';
import { SPEED_BANDS } from '../../map/speed-colors';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import { PLAYBACK_SPEEDS, usePlayback } from './usePlayback';
import '../../ui/Button.css';
import '../../ui/TextField.css';
import '../../map/MapView.css';
import './SpeedChart.css';
import './reports.css';
import './HistoryView.css';

/** The marks on the route, drawn and named in the legend alike. */
const MARKS = {
  start: { color: '#16a34a', text: 'I' },
  stop: { color: '#0b5cad', text: 'P' },
  alert: { color: '#c2410c', text: '!' },
  end: { color: '#b3261e', text: 'F' },
};
const MARK_LEGEND = [
  { ...MARKS.start, label: reportsText.start },
  { ...MARKS.stop, label: reportsText.stop },
  { ...MARKS.alert, label: reportsText.alert },
  { ...MARKS.end, label: reportsText.end },
];

const loadChart = () => import('./SpeedChart');
const SpeedChart = lazy(() => loadChart().then((m) => ({ default: m.SpeedChart })));
/** Starts loading the chart (and uPlot) while the history is still on its way. */
export const prefetchChart = () => void loadChart();

export function HistoryView({ report }: { report: HistoryReport }) {
  const points = report.positions;
  const baseMap = useMapConfig();
  const times = useMemo(() => points.map((p) => Date.parse(p.fixTime)), [points]);
  const speeds = useMemo(() => points.map((p) => p.speed), [points]);
  const playback = usePlayback(times);
  const [follow, setFollow] = useState(false);
  const current = points[playback.index] ?? null;
  const markers = useMemo<Marker[]>(() => {
    const first = points[0];
    const last = points.at(-1);
    return [
      ...report.stops.map((stop, i) => ({
        id: `stop-${i}`,
        latitude: stop.latitude,
        longitude: stop.longitude,
        ...MARKS.stop,
      })),
      ...report.alerts.map((alert) => ({
        id: `alert-${alert.id}`,
        latitude: alert.latitude ?? 0,
        longitude: alert.longitude ?? 0,
        ...MARKS.alert,
      })),
      ...(first
        ? [
            {
              id: 'start',
              latitude: first.latitude,
              longitude: first.longitude,
              ...MARKS.start,
            },
          ]
        : []),
      ...(last
        ? [
            {
              id: 'end',
              latitude: last.latitude,
              longitude: last.longitude,
              ...MARKS.end,
            },
          ]
        : []),
    ];
  }, [points, report.stops, report.alerts]);

  const jumpToStop = (id: string) => {
    const stop = report.stops[Number(id.replace('stop-', ''))];
    if (!stop) return;
    const at = Date.parse(stop.startTime);
    const index = times.findIndex((time) => time >= at);
    if (index >= 0) playback.seek(index);
  };
  const distance = (points.at(-1)?.odometer ?? 0) - (points[0]?.odometer ?? 0);

  return (
    <div className="history">
      <div className="history-main">
        <MapView label={reportsText.historyMap} className="map history-map" id="history-map">
          <BaseTiles config={baseMap} />
          <RouteLayer points={points} />
          <MarkersLayer markers={markers} onSelect={jumpToStop} />
          <PlaybackMarker position={current} vehicleType={report.vehicleType} follow={follow} />
        </MapView>
        <ul className="speed-legend" aria-label={reportsText.legend}>
          {SPEED_BANDS.map((band) => (
            <li key={band.label}>
              <span className="legend-line" style={{ background: band.color }} aria-hidden="true" />
              {band.label}
            </li>
          ))}
          {MARK_LEGEND.map(({ text, color, label }) => (
            <li key={text}>
              <span className="legend-dot" style={{ background: color }} aria-hidden="true">
                {text}
              </span>{' '}
              {label}
            </li>
          ))}
        </ul>
        <fieldset className="playback" aria-label={t.screens.historyView.reproducao}>
          <Button
            variant="primary"
            onPress={playback.toggle}
            aria-label={playback.playing ? reportsText.pause : reportsText.play}
          >
            {playback.playing ? '❚❚' : '▶'}
          </Button>
          <Select
            label={reportsText.speed}
            className="field playback-speed"
            options={PLAYBACK_SPEEDS.map((s) => ({ label: `${s}×`, value: String(s) }))}
            value={String(playback.speed)}
            onChange={(s) => playback.setSpeed(Number(s))}
          />
          <Slider
            className="timeline"
            minValue={0}
            maxValue={Math.max(0, points.length - 1)}
            value={playback.index}
            onChange={(value) => playback.seek(Array.isArray(value) ? (value[0] ?? 0) : value)}
            aria-label={reportsText.timeline}
          >
            <div className="timeline-head">
              <Label>{reportsText.timeline}</Label>
              <SliderOutput>{() => (current ? formatDateTime(current.fixTime) : '')}</SliderOutput>
            </div>
            <SliderTrack className="timeline-track">
              <SliderThumb className="timeline-thumb" />
            </SliderTrack>
          </Slider>
          <ToggleButton className="btn btn-secondary" isSelected={follow} onChange={setFollow}>
            {reportsText.follow}
          </ToggleButton>
        </fieldset>
        <p className="playback-now" aria-live="off">
          {current && (
            <>
              <strong>{formatTime(current.fixTime)}</strong> · {Math.round(current.speed ?? 0)}{' '}
              {t.screens.historyView.kmH2}{' '}
              {current.ignition === null ? '' : current.ignition ? reportsText.on : reportsText.off}{' '}
              · {formatDistance(current.odometer - (points[0]?.odometer ?? 0))}
            </>
          )}
        </p>
        <Suspense fallback={<div className="speed-chart" />}>
          <SpeedChart
            times={times}
            speeds={speeds}
            index={playback.index}
            onScrub={playback.seek}
          />
        </Suspense>
        <p className="history-summary">
          {points.length.toLocaleString('pt-BR')} {t.screens.historyView.posicoes}{' '}
          {formatDistance(distance)} · {report.stops.length}{' '}
          {report.stops.length === 1 ? 'parada' : 'paradas'} ·{' '}
          {formatDuration(((times.at(-1) ?? 0) - (times[0] ?? 0)) / 1000)}
        </p>
      </div>
      <HistoryTable report={report} index={playback.index} onChoose={playback.seek} />
    </div>
  );
}

function HistoryTable({
  report,
  index,
  onChoose,
}: {
  report: HistoryReport;
  index: number;
  onChoose: (index: number) => void;
}) {
  const rows = useMemo(() => report.positions.map((p, i) => ({ ...p, id: String(i) })), [report]);
  const choose = (keys: Selection) => {
    if (keys === 'all') return;
    const [key] = [...keys];
    if (key !== undefined) onChoose(Number(key));
  };
  return (
    <section className="history-table" aria-label={reportsText.positionsTable}>
      <div className="history-table-head" aria-hidden="true">
        <span>{reportsText.time}</span>
        <span>{t.screens.historyView.kmH}</span>
        <span>{reportsText.ignition}</span>
      </div>
      <Virtualizer layout={ListLayout} layoutOptions={{ rowHeight: 32 }}>
        <GridList
          aria-label={reportsText.positionsTable}
          className="history-rows"
          items={rows}
          selectionMode="single"
          selectionBehavior="replace"
          selectedKeys={[String(index)]}
          onSelectionChange={choose}
        >
          {(row) => (
            <GridListItem id={row.id} textValue={formatTime(row.fixTime)} className="history-row">
              <span>{formatTime(row.fixTime)}</span>
              <span>{Math.round(row.speed ?? 0)}</span>
              <span>
                {row.ignition === null ? '-' : row.ignition ? reportsText.on : reportsText.off}
              </span>
            </GridListItem>
          )}
        </GridList>
      </Virtualizer>
    </section>
  );
}

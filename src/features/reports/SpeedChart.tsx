/**
 * The speed of a history over time, under the map (uPlot, loaded only by the pages that
 * draw charts). Its cursor follows the playback; clicking or dragging on it moves the
 * playback there.
 */
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import { t } from '../../i18n/pt-BR';
import { reportsText } from '../../i18n/reports';
import { formatTime } from '../../lib/day-range';
import './SpeedChart.css';

/**
 * Longer than this between two positions (no signal, a tracker off), the line breaks: the
 * speed in between is not known, and a straight line would draw a climb nobody drove.
 */
export const SPEED_GAP_S = 30 * 60;

/** The spans (seconds, from and to) between positions further apart than SPEED_GAP_S. */
export function spansWithoutPositions(
  xs: ArrayLike<number>,
  from = 0,
  to = xs.length - 1,
): [number, number][] {
  const spans: [number, number][] = [];
  for (let i = from; i < to; i++) {
    const a = xs[i];
    const b = xs[i + 1];
    if (a !== undefined && b !== undefined && b - a > SPEED_GAP_S) spans.push([a, b]);
  }
  return spans;
}

/** The chart's gaps (canvas pixels): those of missing values, and the spans without positions. */
function withoutPositions(u: uPlot, idx0: number, idx1: number, nullGaps: uPlot.Series.Gaps) {
  const gaps = [...nullGaps];
  for (const [a, b] of spansWithoutPositions(u.data[0], idx0, idx1))
    gaps.push([Math.round(u.valToPos(a, 'x', true)) + 1, Math.round(u.valToPos(b, 'x', true))]);
  return gaps.sort((g, h) => g[0] - h[0]);
}

/** Loaded with this module (which the history screen asks for as it opens), not on first draw. */
const uplot = Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]);

export function SpeedChart({
  times,
  speeds,
  index,
  onScrub,
}: {
  /** Epoch milliseconds. */
  times: number[];
  speeds: (number | null)[];
  index: number;
  onScrub: (index: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const scrub = useRef(onScrub);
  scrub.current = onScrub;
  const pointer = useRef(false);

  useEffect(() => {
    let cancelled = false;
    let made: uPlot | null = null;
    const release = () => {
      pointer.current = false;
    };
    const element = box.current;
    if (!element) return;
    void uplot.then(([{ default: UPlot }]) => {
      if (cancelled) return;
      const seconds = times.map((ms) => ms / 1000);
      made = new UPlot(
        {
          width: element.clientWidth || 600,
          height: 150,
          legend: { show: false },
          scales: {
            x: { time: true },
            y: { range: (_u, _min, max) => [0, Math.max(20, max * 1.1)] },
          },
          axes: [
            { values: (_u, ticks) => ticks.map((s) => formatTime(s * 1000).slice(0, 5)) },
            { label: t.screens.speedChart.kmH, size: 50 },
          ],
          series: [
            {},
            {
              label: t.screens.speedChart.velocidade,
              stroke: '#0b5cad',
              fill: 'rgba(11,92,173,0.12)',
              width: 1.5,
              points: { show: false },
              gaps: (u, _series, idx0, idx1, nullGaps) => withoutPositions(u, idx0, idx1, nullGaps),
            },
          ],
          cursor: { drag: { x: false, y: false }, points: { size: 8 } },
          hooks: {
            setCursor: [
              (u) => {
                if (pointer.current && u.cursor.idx !== null && u.cursor.idx !== undefined)
                  scrub.current(u.cursor.idx);
              },
            ],
          },
        },
        [seconds, speeds.map((s) => s ?? 0)],
        element,
      );
      const over = made.over;
      over.addEventListener('pointerdown', () => {
        pointer.current = true;
        if (made?.cursor.idx !== null && made?.cursor.idx !== undefined)
          scrub.current(made.cursor.idx);
      });
      window.addEventListener('pointerup', release);
      chart.current = made;
      element.dataset.ready = 'true';
    });
    const resize = new ResizeObserver(() => {
      if (made && element.clientWidth) made.setSize({ width: element.clientWidth, height: 150 });
    });
    resize.observe(element);
    return () => {
      cancelled = true;
      window.removeEventListener('pointerup', release);
      resize.disconnect();
      made?.destroy();
      chart.current = null;
    };
  }, [times, speeds]);

  // The cursor follows the playback (unless the pointer is on the chart).
  useEffect(() => {
    const u = chart.current;
    if (!u || pointer.current) return;
    const x = times[index];
    if (x === undefined) return;
    const left = u.valToPos(x / 1000, 'x');
    const top = u.valToPos(speeds[index] ?? 0, 'y');
    u.setCursor({ left, top }, false);
    if (box.current) box.current.dataset.cursor = String(index);
  }, [index, times, speeds]);

  return (
    <figure className="speed-chart">
      <div ref={box} role="img" aria-label={reportsText.speedChart} />
    </figure>
  );
}

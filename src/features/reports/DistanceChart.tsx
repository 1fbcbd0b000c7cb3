/**
 * Kilometres per day, one bar per day with each vehicle's share stacked in its colour (uPlot,
 * loaded only where charts are drawn). The table beside it has the exact figures.
 */
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import { t } from '../../i18n/pt-BR';
import { reportsText } from '../../i18n/reports';
import './reports.css';
import './DistanceChart.css';

export const VEHICLE_COLORS = [
  '#0b5cad',
  '#16a34a',
  '#ca8a04',
  '#dc2626',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#65a30d',
];

export function DistanceChart({
  days,
  series,
}: {
  days: string[];
  /** Per vehicle: its label and km per day (in the order of `days`). */
  series: { label: string; km: number[] }[];
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | null = null;
    let cancelled = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(
      ([{ default: UPlot }]) => {
        if (cancelled) return;
        // Stacked: each series is drawn as the sum up to it, the tallest first.
        const sums = series.map((_, i) =>
          days.map((_, d) => series.slice(0, i + 1).reduce((sum, s) => sum + (s.km[d] ?? 0), 0)),
        );
        const order = series.map((_, i) => i).reverse();
        const bars = UPlot.paths.bars?.({ size: [0.7, 64] });
        chart = new UPlot(
          {
            width: element.clientWidth || 600,
            height: 240,
            legend: { show: false },
            scales: {
              // The days themselves (not uPlot's guess from the data: one day alone was drawn
              // as a thin bar at the left of an empty chart).
              x: { time: false, range: () => [-0.6, Math.max(0, days.length - 1) + 0.6] },
              y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
            },
            axes: [
              {
                // 'dd/mm': narrow enough for a week on a phone; the table has the weekday.
                values: (_u, ticks) =>
                  ticks.map((i) =>
                    Number.isInteger(i)
                      ? (days[i] ?? '').slice(5).split('-').reverse().join('/')
                      : '',
                  ),
                space: 44,
                // Whole days only: a tick (and its grid line) between two days means nothing.
                incrs: [1, 2, 5, 7, 10, 14, 30, 60],
              },
              { label: t.screens.distanceChart.km, size: 56 },
            ],
            series: [
              {},
              ...order.map((i) => ({
                label: series[i]?.label ?? '',
                fill: VEHICLE_COLORS[i % VEHICLE_COLORS.length],
                stroke: VEHICLE_COLORS[i % VEHICLE_COLORS.length],
                width: 0,
                ...(bars ? { paths: bars } : {}),
                points: { show: false },
              })),
            ],
          },
          [days.map((_, i) => i), ...order.map((i) => sums[i] ?? [])],
          element,
        );
        element.dataset.ready = 'true';
      },
    );
    const resize = new ResizeObserver(() => {
      if (chart && element.clientWidth) chart.setSize({ width: element.clientWidth, height: 240 });
    });
    resize.observe(element);
    return () => {
      cancelled = true;
      resize.disconnect();
      chart?.destroy();
    };
  }, [days, series]);
  return (
    <figure className="distance-chart">
      <div ref={box} role="img" aria-label={reportsText.perDay} />
      <ul className="distance-chart-legend">
        {series.map((s, i) => (
          <li key={s.label}>
            <span
              className="legend-line"
              style={{ background: VEHICLE_COLORS[i % VEHICLE_COLORS.length] }}
              aria-hidden="true"
            />
            {s.label}
          </li>
        ))}
      </ul>
    </figure>
  );
}

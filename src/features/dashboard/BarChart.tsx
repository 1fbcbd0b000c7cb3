/**
 * Bars over categories (days or buckets), stacked when there are several series: uPlot, the
 * chart library the reports already use, loaded only when a chart is drawn. The legend below
 * names each series; the figures themselves are in the tables beside the charts.
 */
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';
import './BarChart.css';

export interface BarSeries {
  label: string;
  color: string;
  values: number[];
}

export function BarChart({
  label,
  categories,
  series,
  height = 220,
  unit,
  tickLabel = (category) => category,
  tickSpace = 44,
  legend = series.length > 1,
}: {
  label: string;
  categories: string[];
  series: BarSeries[];
  height?: number;
  unit?: string;
  tickLabel?: (category: string) => string;
  /** Least pixels between two labels of the horizontal axis (fewer categories: smaller). */
  tickSpace?: number;
  /** Names the series below the chart (by default when there are several). */
  legend?: boolean;
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
        // Stacked: each series drawn as the sum up to it, the tallest behind.
        const sums = series.map((_, i) =>
          categories.map((_, d) =>
            series.slice(0, i + 1).reduce((sum, s) => sum + (s.values[d] ?? 0), 0),
          ),
        );
        const order = series.map((_, i) => i).reverse();
        const bars = UPlot.paths.bars?.({ size: [0.7, 48] });
        chart = new UPlot(
          {
            width: element.clientWidth || 600,
            height,
            legend: { show: false },
            cursor: { show: false },
            scales: {
              x: { time: false, range: (_u, min, max) => [min - 0.6, max + 0.6] },
              y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
            },
            axes: [
              {
                values: (_u, ticks) =>
                  ticks.map((i) => (Number.isInteger(i) ? tickLabel(categories[i] ?? '') : '')),
                space: tickSpace,
                gap: 4,
                font: '11px system-ui, sans-serif',
              },
              unit ? { label: unit, size: 64, labelSize: 20 } : { size: 48 },
            ],
            series: [
              {},
              ...order.map((i) => ({
                label: series[i]?.label ?? '',
                fill: series[i]?.color,
                stroke: series[i]?.color,
                width: 0,
                ...(bars ? { paths: bars } : {}),
                points: { show: false },
              })),
            ],
          },
          [categories.map((_, i) => i), ...order.map((i) => sums[i] ?? [])],
          element,
        );
        element.dataset.ready = 'true';
      },
    );
    const resize = new ResizeObserver(() => {
      if (chart && element.clientWidth) chart.setSize({ width: element.clientWidth, height });
    });
    resize.observe(element);
    return () => {
      cancelled = true;
      resize.disconnect();
      chart?.destroy();
    };
  }, [categories, series, height, unit, tickLabel, tickSpace]);
  return (
    <figure className="bar-chart">
      <div ref={box} role="img" aria-label={label} className="bar-chart-plot" />
      {legend && (
        <ul className="chart-legend">
          {series.map((s) => (
            <li key={s.label}>
              <span className="legend-swatch" style={{ background: s.color }} aria-hidden="true" />
              {s.label}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

/** Route colours by speed (km/h): how a history reads at a glance, with the legend's labels. */
export const SPEED_BANDS = [
  { max: 5, color: '#64748b', label: 'Parado (até 5 km/h)' },
  { max: 40, color: '#16a34a', label: '5 a 40 km/h' },
  { max: 80, color: '#ca8a04', label: '40 a 80 km/h' },
  { max: Number.POSITIVE_INFINITY, color: '#dc2626', label: 'Acima de 80 km/h' },
] as const;

export function speedBand(speed: number | null): number {
  const s = speed ?? 0;
  return SPEED_BANDS.findIndex((band) => s < band.max);
}

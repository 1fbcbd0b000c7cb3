/**
 * KML of a history with @placemarkio/tokml: the route as a LineString (every fix, in order)
 * with its first and last time, and each stop as a placemark whose name is its number and
 * whose description says when it began, how long it lasted and when it ended (São Paulo time).
 */
import { writeFile } from 'node:fs/promises';
import { toKML } from '@placemarkio/tokml';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { formatDuration } from '../../../src/lib/format';
import type { ReportDocument } from './model';
import { formatInstant, periodText } from './text';

export function historyKml(doc: ReportDocument): string {
  const features: Feature<Geometry>[] = [];
  for (const route of doc.routes) {
    const times = route.times ?? [];
    features.push({
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: route.points.map((p) => [p.lon, p.lat]),
      },
      properties: {
        name: `${route.title} — ${doc.subjects.join(', ')}`,
        description: `Período: ${periodText(doc.beginAt, doc.endAt)}; ${route.points.length} posições`,
        ...(times[0] && times.at(-1)
          ? {
              begin: formatInstant(times[0]),
              end: formatInstant(times.at(-1) ?? times[0]),
            }
          : {}),
        stroke: '#0b5cad',
        'stroke-width': 3,
      },
    });
    route.stops.forEach((stop, i) => {
      features.push({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [stop.lon, stop.lat] },
        properties: {
          name: `Parada ${i + 1}`,
          description: `${stop.label}: de ${formatInstant(stop.start)} a ${formatInstant(stop.end)} (${formatDuration((stop.end.getTime() - stop.start.getTime()) / 1000)})`,
          inicio: formatInstant(stop.start),
          fim: formatInstant(stop.end),
        },
      });
    });
  }
  const collection: FeatureCollection<Geometry> = { type: 'FeatureCollection', features };
  return toKML(collection);
}

export async function writeKml(doc: ReportDocument, filename: string): Promise<number> {
  await writeFile(filename, historyKml(doc), 'utf8');
  return doc.routes.reduce((sum, r) => sum + r.points.length, 0);
}

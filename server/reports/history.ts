/**
 * The positions of a vehicle's history report (`registros/reports/history`) as JSON texts for
 * server/platform/http/stream-json.ts: the samples of its analysis within the period, already
 * read for the trips and stops, written out a chunk at a time.
 */
import type { Analysis } from './analyse';

/** Positions per chunk: the event loop is let go between chunks (a month is many of them). */
const CHUNK = 2000;

/** The analysis's samples in [first, end), one position a line, CHUNK a text. */
export async function* historyLines(analysis: Analysis): AsyncGenerator<string> {
  const s = analysis.samples;
  for (let i = analysis.first; i < analysis.end; i += CHUNK) {
    const part: string[] = [];
    for (let j = i; j < Math.min(i + CHUNK, analysis.end); j += 1) {
      const speed = s.speed[j] ?? Number.NaN;
      const course = s.course[j] ?? Number.NaN;
      const ignition = s.ignition[j];
      part.push(
        JSON.stringify({
          fixTime: new Date(s.time[j] ?? 0).toISOString(),
          latitude: s.lat[j],
          longitude: s.lon[j],
          speed: Number.isNaN(speed) ? null : speed,
          course: Number.isNaN(course) ? null : course,
          ignition: ignition === 1 ? true : ignition === 0 ? false : null,
          odometer: s.odometer[j],
        }),
      );
    }
    yield part.join(',\n');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

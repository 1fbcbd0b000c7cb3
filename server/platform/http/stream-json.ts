/**
 * A JSON answer too large to hold whole (a month of positions), written as it is read: the
 * object's other fields around one array, whose items come one chunk at a time. A client that
 * goes away stops the reading.
 */
import type { Context } from 'hono';
import { stream } from 'hono/streaming';

/** Streams `{ ...head, [key]: [ …lines… ], ...tail }` with one array item per line. */
export function streamJson(
  c: Context,
  head: Record<string, unknown>,
  key: string,
  lines: AsyncIterable<string>,
  tail: () => Promise<Record<string, unknown>> = async () => ({}),
) {
  c.header('content-type', 'application/json; charset=utf-8');
  return stream(c, async (out) => {
    const opening = JSON.stringify(head).slice(0, -1);
    await out.write(`${opening}${opening.length > 1 ? ',' : ''}${JSON.stringify(key)}:[\n`);
    let first = true;
    for await (const chunk of lines) {
      if (out.aborted) return;
      await out.write(`${first ? '' : ',\n'}${chunk}`);
      first = false;
    }
    const rest = JSON.stringify(await tail()).slice(1);
    await out.write(`\n]${rest.length > 1 ? ',' : ''}${rest}`);
  });
}

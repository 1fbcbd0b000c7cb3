/**
 * The base map the server is configured with (`registros/map/config`, public). The last
 * answer is kept in localStorage: offline, and before the answer comes, the map is drawn
 * with it; never seen, the map shows only its built-in base until the server answers.
 */
import * as v from 'valibot';
import { type MapConfig, MapConfigSchema } from '../contract';
import { api } from './client';

const KEY = 'mapConfig';

export function savedMapConfig(): MapConfig | null {
  try {
    const parsed = v.safeParse(MapConfigSchema, JSON.parse(localStorage.getItem(KEY) ?? 'null'));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

export async function mapConfig(): Promise<MapConfig> {
  const config = v.parse(
    MapConfigSchema,
    await api.get('registros/map/config', { timeout: 10_000, retry: 0 }).json(),
  );
  try {
    localStorage.setItem(KEY, JSON.stringify(config));
  } catch {
    // Storage full or refused: the next visit asks the server again.
  }
  return config;
}

import { useEffect, useState } from 'react';
import { mapConfig, savedMapConfig } from '../api/map';
import type { MapConfig } from '../contract';

const same = (a: MapConfig | null, b: MapConfig | null) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The base map the server is configured with, for <BaseTiles>: the last one seen at once
 * (offline too), then the server's answer when it differs. Null before any is known: the
 * map shows its built-in base meanwhile.
 */
export function useMapConfig(): MapConfig | null {
  const [config, setConfig] = useState<MapConfig | null>(savedMapConfig);
  useEffect(() => {
    let live = true;
    mapConfig().then(
      (fresh) => {
        if (live) setConfig((current) => (same(current, fresh) ? current : fresh));
      },
      // Offline or refused: keep the saved choice (or only the built-in base).
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return config;
}

/**
 * Runs an async load when its inputs change and keeps the latest answer, error and loading
 * state; late answers of superseded loads are dropped. Feature data hooks build on it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface AsyncState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useAsync<T>(
  load: (() => Promise<T>) | null,
  deps: readonly unknown[],
): AsyncState<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: load !== null,
  });
  const [tick, setTick] = useState(0);
  const current = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names the inputs of the load
  useEffect(() => {
    const run = loadRef.current;
    if (!run) {
      setState((s) => ({ ...s, loading: false }));
      return;
    }
    const id = ++current.current;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    run().then(
      (data) => id === current.current && setState({ data, error: undefined, loading: false }),
      (error: unknown) =>
        id === current.current && setState((s) => ({ ...s, error, loading: false })),
    );
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

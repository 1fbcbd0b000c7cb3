import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/** After a write: marks every cached answer under these key prefixes stale and re-reads them. */
export function useInvalidate(): (...prefixes: readonly (readonly unknown[])[]) => Promise<void> {
  const client = useQueryClient();
  return useCallback(
    async (...prefixes) => {
      await Promise.all(prefixes.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
    [client],
  );
}

/**
 * The fleets of a customer for pickers, through the query cache (one read per customer), and
 * whether they are still loading or could not be read.
 */
import { useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { LOOKUP_QUERY } from '../../api/query';
import { fleetsApi } from '../../api/resources';
import type { Choices } from '../../ui/Select';
import { choicesOf } from '../choices';

export function useFleetChoices(clientId: string | null): Choices {
  const params = { clientId, limit: 1000, sort: 'name' };
  const query = useQuery({
    queryKey: keys.resourceList(fleetsApi.path, params),
    queryFn: () => fleetsApi.list(params),
    enabled: Boolean(clientId),
    ...LOOKUP_QUERY,
  });
  return choicesOf(
    query,
    (query.data?.fleets ?? []).map((f) => ({ value: f.id, label: f.name })),
  );
}

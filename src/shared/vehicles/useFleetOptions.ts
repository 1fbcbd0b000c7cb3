/** The fleets of a customer for pickers, through the query cache (one read per customer). */
import { useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { LOOKUP_QUERY } from '../../api/query';
import { fleetsApi } from '../../api/resources';
import type { SelectOption } from '../../ui/Select';

export function useFleetOptions(clientId: string | null): SelectOption[] {
  const params = { clientId, limit: 1000, sort: 'name' };
  const query = useQuery({
    queryKey: keys.resourceList(fleetsApi.path, params),
    queryFn: () => fleetsApi.list(params),
    enabled: Boolean(clientId),
    ...LOOKUP_QUERY,
  });
  return (query.data?.fleets ?? []).map((f) => ({ value: f.id, label: f.name }));
}

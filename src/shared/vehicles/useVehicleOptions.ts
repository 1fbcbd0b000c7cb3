/**
 * The vehicles of a customer (and of the companies below it) for pickers, through the query
 * cache: one read shared by every picker of the same customer, with the spec's toasts
 * ('Carregando veículos...' while it loads, 'Erro ao carregar veículos' when it fails).
 */
import { useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { LOOKUP_QUERY } from '../../api/query';
import { vehiclesApi } from '../../api/resources';
import { VEHICLE_SEARCH_BY_CLIENT, vehicleOption } from '../../contract';
import { useErrorToast, useLoadingToast } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';
import type { Choices, SelectOption } from '../../ui/Select';
import { choicesOf } from '../choices';

export function useVehicles(clientId: string | null, limit = VEHICLE_SEARCH_BY_CLIENT) {
  const params = { clientId, limit, sort: 'plate' };
  const query = useQuery({
    queryKey: keys.resourceList(vehiclesApi.path, params),
    queryFn: () => vehiclesApi.list(params),
    enabled: Boolean(clientId),
    ...LOOKUP_QUERY,
  });
  useLoadingToast(query.isLoading, t.vehicles.loading);
  useErrorToast(query.error, t.vehicles.loadError);
  return query;
}

/** 'plate | name' options (SPEC §3), in plate order. */
export function useVehicleOptions(clientId: string | null, limit?: number): SelectOption[] {
  return useVehicleChoices(clientId, limit).options;
}

/**
 * The options, whether they are still loading (a picker that says 'Carregando…') and whether
 * they could not be read (one that says 'Sem conexão').
 */
export function useVehicleChoices(clientId: string | null, limit?: number): Choices {
  const query = useVehicles(clientId, limit);
  return choicesOf(query, (query.data?.vehicles ?? []).map(vehicleOption));
}

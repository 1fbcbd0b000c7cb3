/**
 * A customer's drivers to pick from, by name (with the RFID tag where a tag matters), and
 * marked 'CNH vencida' when their licence has expired: whoever picks a driver for a trip, a
 * document or a refuel sees it before choosing.
 */
import { useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { LOOKUP_QUERY } from '../../api/query';
import { driversApi } from '../../api/resources';
import { t } from '../../i18n/pt-BR';
import { licenseState } from '../../lib/license';
import type { Choices, SelectOption } from '../../ui/Select';
import { choicesOf } from '../choices';

export function useDriverOptions(
  clientId: string | null,
  options: { withTag?: boolean } = {},
): SelectOption[] {
  return useDriverChoices(clientId, options).options;
}

/** The same options, and whether they are still loading or could not be read. */
export function useDriverChoices(
  clientId: string | null,
  options: { withTag?: boolean } = {},
): Choices {
  const params = { clientId, limit: 1000, sort: 'completName' };
  const query = useQuery({
    queryKey: keys.resourceList(driversApi.path, params),
    queryFn: () => driversApi.list(params),
    enabled: Boolean(clientId),
    ...LOOKUP_QUERY,
  });
  return choicesOf(
    query,
    (query.data?.drivers ?? []).map((d) => {
      const name =
        options.withTag && d.rfidCode ? `${d.completName} (${d.rfidCode})` : d.completName;
      const expired = d.licenseExpiry && licenseState(d.licenseExpiry)?.kind === 'expired';
      return { value: d.id, label: expired ? `${name} · ${t.screens.drivers.cnhVencida}` : name };
    }),
  );
}

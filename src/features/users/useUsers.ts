/** User data for screens, through the query cache: the list of the selected customer and one user. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { keys } from '../../api/keys';
import { getUser, listUsers, type UserListParams } from '../../api/users';
import { SELECT_CLIENT_MESSAGE, SELECT_CLIENT_TITLE } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';
import { toast } from '../../ui/feedback/toasts';

export function useUserList(
  params: Omit<UserListParams, 'clientId'> & { clientId: string | null },
) {
  const { clientId } = params;
  const query = useQuery({
    queryKey: keys.userList(params),
    queryFn: () => listUsers({ ...params, clientId: clientId ?? '' }),
    enabled: Boolean(clientId),
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    // SPEC §5: listing users needs a selected customer.
    if (!clientId) toast.error(SELECT_CLIENT_TITLE, SELECT_CLIENT_MESSAGE);
  }, [clientId]);
  useErrorToast(query.error, t.users.fetchError);
  return query;
}

export function useUser(id: string | undefined) {
  const query = useQuery({
    queryKey: keys.user(id ?? ''),
    queryFn: () => getUser(id ?? ''),
    enabled: Boolean(id),
  });
  useErrorToast(query.error, t.users.fetchError);
  return query;
}

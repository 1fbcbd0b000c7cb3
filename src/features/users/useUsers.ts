/** User data for screens, through the query cache: the list of the selected customer and one user. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { getUser, listUsers, type UserListParams } from '../../api/users';
import { useErrorToast } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';

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

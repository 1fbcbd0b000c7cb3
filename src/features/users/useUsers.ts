/** User data for screens: the list of the selected customer and one user. */
import { useEffect } from 'react';
import { getUser, listUsers, type UserListParams } from '../../api/users';
import { toastError } from '../../app/feedback';
import { toast } from '../../app/toasts';
import { useAsync } from '../../app/useAsync';
import { SELECT_CLIENT_MESSAGE, SELECT_CLIENT_TITLE } from '../../contract';
import { t } from '../../i18n/pt-BR';

export function useUserList(
  params: Omit<UserListParams, 'clientId'> & { clientId: string | null },
) {
  const { clientId } = params;
  const state = useAsync(clientId ? () => listUsers({ ...params, clientId }) : null, [
    JSON.stringify(params),
  ]);
  useEffect(() => {
    // SPEC §5: listing users needs a selected customer.
    if (!clientId) toast.error(SELECT_CLIENT_TITLE, SELECT_CLIENT_MESSAGE);
  }, [clientId]);
  useEffect(() => {
    if (state.error) void toastError(t.users.fetchError, state.error);
  }, [state.error]);
  return state;
}

export function useUser(id: string | undefined) {
  const state = useAsync(id ? () => getUser(id) : null, [id]);
  useEffect(() => {
    if (state.error) void toastError(t.users.fetchError, state.error);
  }, [state.error]);
  return state;
}

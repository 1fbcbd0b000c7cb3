/** /management/users: the users of the selected customer, with level and status. */
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import { deleteUser, updateUser } from '../../api/users';
import { canAssignRole, hasPermission, ROLE_LABELS, ROLES, type User } from '../../contract';
import { requireOnline, toastError } from '../../hooks/feedback';
import { useInvalidate } from '../../hooks/useInvalidate';
import { useListControls, useRemoval } from '../../hooks/useListControls';
import { useSession } from '../../hooks/useSession';
import { t } from '../../i18n/pt-BR';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { CustomerRequired } from '../../shared/customers/CustomerRequired';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { Button } from '../../ui/Button';
import type { ColumnDef } from '../../ui/DataTable';
import { toast } from '../../ui/feedback/toasts';
import { PagedTable } from '../../ui/PagedTable';
import { SearchInput } from '../../ui/SearchInput';
import { Select } from '../../ui/Select';
import { useUserList } from './useUsers';
import '../../ui/Button.css';
import '../../ui/DataTable.css';
import '../../ui/badge.css';
import '../../ui/page.css';

export function UsersPage() {
  const me = useSession()?.user;
  const [clientId, setClientId] = useSelectedClient();
  const [role, setRole] = useState('');
  const controls = useListControls({ column: 'name', direction: 'asc' });
  const list = useUserList({ ...controls.params, clientId, role });
  const invalidate = useInvalidate();
  const reload = () => void invalidate(keys.users);
  const removal = useRemoval<User>({
    remove: (u) => deleteUser(u.id),
    done: t.users.removed,
    errorTitle: t.users.removeError,
    onDone: reload,
  });
  const manageable = (u: User) =>
    Boolean(me) && u.id !== me?.id && canAssignRole(me?.role ?? 'VISITOR', u.role);
  const canRemove = me ? hasPermission(me.role, 'delete_resources') : false;

  async function toggle(user: User) {
    if (!requireOnline()) return;
    try {
      await updateUser(user.id, { active: user.active ? 0 : 1 });
      toast.success(user.active ? t.users.deactivated : t.users.activated);
      reload();
    } catch (err) {
      await toastError(t.users.saveError, err);
    }
  }

  const columns: ColumnDef<User>[] = [
    {
      id: 'name',
      label: t.users.name,
      sortable: true,
      rowHeader: true,
      render: (u) => (
        <Link href={`/management/users/${u.id}`} className="cell-link">
          {u.name}
        </Link>
      ),
    },
    { id: 'email', label: t.users.email, sortable: true, render: (u) => u.email },
    { id: 'role', label: t.users.level, sortable: true, render: (u) => ROLE_LABELS[u.role] },
    {
      id: 'status',
      label: t.list.status,
      render: (u) => (
        <span className="badges">
          <span className={`badge ${u.active ? 'badge-success' : 'badge-neutral'}`}>
            {u.active ? t.list.active : t.list.inactive}
          </span>
          {!u.passwordSet && <span className="badge badge-warning">{t.users.passwordPending}</span>}
        </span>
      ),
    },
    {
      id: 'actions',
      label: t.list.actions,
      render: (u) =>
        manageable(u) ? (
          <div className="row-actions">
            <Link
              href={`/management/users/${u.id}`}
              className="btn btn-ghost"
              aria-label={`${t.list.edit} ${u.name}`}
            >
              {t.list.edit}
            </Link>
            <Button
              variant="ghost"
              aria-label={`${u.active ? t.users.deactivate : t.users.activate} ${u.name}`}
              onPress={() => void toggle(u)}
            >
              {u.active ? t.users.deactivate : t.users.activate}
            </Button>
            {canRemove && (
              <Button
                variant="ghost"
                aria-label={`${t.list.remove} ${u.name}`}
                onPress={() => removal.ask(u)}
              >
                {t.list.remove}
              </Button>
            )}
          </div>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.users.title}</h1>
        <Link href="/management/users/create" className="btn btn-primary">
          {t.list.create}
        </Link>
      </div>
      <div className="filters">
        <CustomerPicker value={clientId} onChange={controls.restart(setClientId)} />
        <SearchInput
          label="Buscar usuários"
          placeholder="Nome ou e-mail"
          value={controls.search}
          onChange={controls.setSearch}
        />
        <Select
          label={t.users.level}
          value={role || 'ALL'}
          onChange={controls.restart((value: string) => setRole(value === 'ALL' ? '' : value))}
          options={[
            { label: 'Todos', value: 'ALL' },
            ...ROLES.map((r) => ({ label: ROLE_LABELS[r], value: r })),
          ]}
        />
      </div>
      {clientId ? (
        <PagedTable
          label={t.users.title}
          columns={columns}
          rows={list.data?.users ?? []}
          total={list.data?.total ?? 0}
          loading={list.isPending}
          unavailable={isUnavailable(list)}
          empty={t.users.empty}
          controls={controls}
          removal={removal}
          confirm={{ title: t.users.confirmRemove, text: t.users.confirmRemoveText }}
        />
      ) : (
        <CustomerRequired />
      )}
    </section>
  );
}

/** /management/users: the users of the selected customer, with level and status. */
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { deleteUser, updateUser } from '../../api/users';
import { requireOnline, toastError } from '../../app/feedback';
import { toast } from '../../app/toasts';
import { useDebounced } from '../../app/useDebounced';
import { useSession } from '../../app/useSession';
import { canAssignRole, ROLE_LABELS, ROLES, type User } from '../../contract';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { type ColumnDef, DataTable, type Sort } from '../../ui/DataTable';
import { Pagination } from '../../ui/Pagination';
import { SearchInput } from '../../ui/SearchInput';
import { Select } from '../../ui/Select';
import { EmptyState } from '../../ui/States';
import { CustomerPicker } from '../customers/CustomerPicker';
import { useSelectedClient } from '../customers/useCustomers';
import { useUserList } from './useUsers';

export function UsersPage() {
  const me = useSession()?.user;
  const [clientId, setClientId] = useSelectedClient();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const [sort, setSort] = useState<Sort>({ column: 'name', direction: 'asc' });
  const [removing, setRemoving] = useState<User>();
  const [pending, setPending] = useState(false);
  const query = useDebounced(search);
  const list = useUserList({
    clientId,
    search: query,
    role,
    page,
    limit,
    sort: sort.column,
    order: sort.direction,
  });
  const manageable = (u: User) =>
    Boolean(me) && u.id !== me?.id && canAssignRole(me?.role ?? 'VISITOR', u.role);

  async function toggle(user: User) {
    if (!requireOnline()) return;
    try {
      await updateUser(user.id, { active: user.active ? 0 : 1 });
      toast.success(user.active ? t.users.deactivated : t.users.activated);
      list.reload();
    } catch (err) {
      await toastError(t.users.saveError, err);
    }
  }

  async function remove() {
    if (!removing || !requireOnline()) return;
    setPending(true);
    try {
      await deleteUser(removing.id);
      toast.success(t.users.removed);
      list.reload();
    } catch (err) {
      await toastError(t.users.removeError, err);
    } finally {
      setPending(false);
      setRemoving(undefined);
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
            <Button
              variant="ghost"
              aria-label={`${t.list.remove} ${u.name}`}
              onPress={() => setRemoving(u)}
            >
              {t.list.remove}
            </Button>
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
        <CustomerPicker
          value={clientId}
          onChange={(id) => {
            setClientId(id);
            setPage(1);
          }}
        />
        <SearchInput
          label="Buscar usuários"
          placeholder="Nome ou e-mail"
          value={search}
          onChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
        />
        <Select
          label={t.users.level}
          value={role || 'ALL'}
          onChange={(value) => {
            setRole(value === 'ALL' ? '' : value);
            setPage(1);
          }}
          options={[
            { label: 'Todos', value: 'ALL' },
            ...ROLES.map((r) => ({ label: ROLE_LABELS[r], value: r })),
          ]}
        />
      </div>
      {clientId ? (
        <>
          <DataTable
            label={t.users.title}
            columns={columns}
            rows={list.data?.users ?? []}
            sort={sort}
            onSortChange={(next) => {
              setSort(next);
              setPage(1);
            }}
            empty={t.users.empty}
            loading={list.loading}
          />
          <Pagination
            page={page}
            limit={limit}
            total={list.data?.total ?? 0}
            onPageChange={setPage}
            onLimitChange={(size) => {
              setLimit(size);
              setPage(1);
            }}
          />
        </>
      ) : (
        <EmptyState title="Selecione um cliente para ver os usuários." />
      )}
      <ConfirmDialog
        title={t.users.confirmRemove}
        confirmLabel={t.list.remove}
        isOpen={Boolean(removing)}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => void remove()}
        danger
        pending={pending}
      >
        <p>
          <strong>{removing?.name}</strong>: {t.users.confirmRemoveText}
        </p>
      </ConfirmDialog>
    </section>
  );
}

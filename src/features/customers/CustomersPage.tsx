/** /management/customers: the customers the user may see, searchable, sortable, paged. */
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { deleteCustomer } from '../../api/customers';
import { requireOnline, toastError } from '../../app/feedback';
import { useCan } from '../../app/permissions';
import { toast } from '../../app/toasts';
import { useDebounced } from '../../app/useDebounced';
import type { Customer } from '../../contract';
import { t } from '../../i18n/pt-BR';
import { maskCnpj, maskCpf, maskPhone } from '../../lib/masks';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { type ColumnDef, DataTable, type Sort } from '../../ui/DataTable';
import { Pagination } from '../../ui/Pagination';
import { SearchInput } from '../../ui/SearchInput';
import { useCustomerList, useCustomerOptions } from './useCustomers';

export function CustomersPage() {
  const canEdit = useCan('CrudCompany');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(10);
  const [sort, setSort] = useState<Sort>({ column: 'name', direction: 'asc' });
  const [removing, setRemoving] = useState<Customer>();
  const [pending, setPending] = useState(false);
  const query = useDebounced(search);
  const list = useCustomerList({
    search: query,
    page,
    limit,
    sort: sort.column,
    order: sort.direction,
  });
  const { customers: all } = useCustomerOptions();
  const nameOf = (id: string | null) => all.find((c) => c.id === id)?.name ?? '—';

  async function remove() {
    if (!removing || !requireOnline()) return;
    setPending(true);
    try {
      await deleteCustomer(removing.id);
      toast.success(t.customers.removed);
      list.reload();
    } catch (err) {
      await toastError(t.customers.removeError, err);
    } finally {
      setPending(false);
      setRemoving(undefined);
    }
  }

  const columns: ColumnDef<Customer>[] = [
    {
      id: 'name',
      label: t.customers.name,
      sortable: true,
      rowHeader: true,
      render: (c) => (
        <Link href={`/management/customers/${c.id}`} className="cell-link">
          {c.name}
        </Link>
      ),
    },
    {
      id: 'document',
      label: t.customers.document,
      render: (c) =>
        c.clientCNPJ ? maskCnpj(c.clientCNPJ) : c.clientCPF ? maskCpf(c.clientCPF) : '—',
    },
    { id: 'email', label: t.customers.email, sortable: true, render: (c) => c.email ?? '—' },
    { id: 'phone', label: t.customers.phone, render: (c) => (c.phone ? maskPhone(c.phone) : '—') },
    {
      id: 'mother',
      label: t.customers.mother,
      render: (c) => (c.motherCompanyId ? nameOf(c.motherCompanyId) : '—'),
    },
    {
      id: 'status',
      label: t.list.status,
      render: (c) => (
        <span className={`badge ${c.active ? 'badge-success' : 'badge-neutral'}`}>
          {c.active ? t.list.active : t.list.inactive}
        </span>
      ),
    },
    {
      id: 'createdAt',
      label: 'Criado em',
      sortable: true,
      render: (c) => new Date(c.createdAt).toLocaleDateString('pt-BR'),
    },
    ...(canEdit
      ? [
          {
            id: 'actions',
            label: t.list.actions,
            render: (c: Customer) => (
              <div className="row-actions">
                <Link
                  href={`/management/customers/${c.id}`}
                  className="btn btn-ghost"
                  aria-label={`${t.list.edit} ${c.name}`}
                >
                  {t.list.edit}
                </Link>
                <Button
                  variant="ghost"
                  aria-label={`${t.list.remove} ${c.name}`}
                  onPress={() => setRemoving(c)}
                >
                  {t.list.remove}
                </Button>
              </div>
            ),
          },
        ]
      : []),
  ];

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.customers.title}</h1>
        {canEdit && (
          <Link href="/management/customers/create" className="btn btn-primary">
            {t.list.create}
          </Link>
        )}
      </div>
      <SearchInput
        label="Buscar clientes"
        placeholder="Nome, razão social, e-mail ou documento"
        value={search}
        onChange={(value) => {
          setSearch(value);
          setPage(1);
        }}
      />
      <DataTable
        label={t.customers.title}
        columns={columns}
        rows={list.data?.clients ?? []}
        sort={sort}
        onSortChange={(next) => {
          setSort(next);
          setPage(1);
        }}
        empty={t.customers.empty}
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
      <ConfirmDialog
        title={t.customers.confirmRemove}
        confirmLabel={t.list.remove}
        isOpen={Boolean(removing)}
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => void remove()}
        danger
        pending={pending}
      >
        <p>
          <strong>{removing?.name}</strong>: {t.customers.confirmRemoveText}
        </p>
      </ConfirmDialog>
    </section>
  );
}

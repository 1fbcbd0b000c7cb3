/** /management/customers: the customers the user may see, searchable, sortable, paged. */
import { Link } from 'react-aria-components';
import { deleteCustomer } from '../../api/customers';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import type { CustomerRow } from '../../contract';
import { useCan } from '../../hooks/useCan';
import { useInvalidate } from '../../hooks/useInvalidate';
import { useListControls, useRemoval } from '../../hooks/useListControls';
import { t } from '../../i18n/pt-BR';
import { localDate } from '../../lib/local-time';
import { maskCnpj, maskCpf, maskPhone } from '../../lib/masks';
import { Button } from '../../ui/Button';
import type { ColumnDef } from '../../ui/DataTable';
import { PagedTable } from '../../ui/PagedTable';
import { SearchInput } from '../../ui/SearchInput';
import { useCustomerList } from './queries';
import '../../ui/Button.css';
import '../../ui/DataTable.css';
import '../../ui/badge.css';
import '../../ui/page.css';

export function CustomersPage() {
  const canEdit = useCan('CrudCompany');
  const canDelete = useCan('delete_resources');
  const canRemove = canEdit && canDelete;
  const invalidate = useInvalidate();
  const controls = useListControls({ column: 'name', direction: 'asc' });
  const list = useCustomerList(controls.params);
  const removal = useRemoval<CustomerRow>({
    remove: (c) => deleteCustomer(c.id),
    done: t.customers.removed,
    errorTitle: t.customers.removeError,
    onDone: () => void invalidate(keys.customers),
  });

  const columns: ColumnDef<CustomerRow>[] = [
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
      // The server names the mother with the row: never a '—' for a child company.
      render: (c) => c.motherCompanyName ?? '—',
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
      label: t.screens.customersPage.criadoEm,
      sortable: true,
      render: (c) => localDate(c.createdAt),
    },
    ...(canEdit
      ? [
          {
            id: 'actions',
            label: t.list.actions,
            render: (c: CustomerRow) => (
              <div className="row-actions">
                <Link
                  href={`/management/customers/${c.id}`}
                  className="btn btn-ghost"
                  aria-label={`${t.list.edit} ${c.name}`}
                >
                  {t.list.edit}
                </Link>
                {canRemove && (
                  <Button
                    variant="ghost"
                    aria-label={`${t.list.remove} ${c.name}`}
                    onPress={() => removal.ask(c)}
                  >
                    {t.list.remove}
                  </Button>
                )}
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
        label={t.screens.customersPage.buscarClientes}
        placeholder={t.screens.customersPage.nomeRazaoSocialE}
        value={controls.search}
        onChange={controls.setSearch}
      />
      <PagedTable
        label={t.customers.title}
        columns={columns}
        rows={list.data?.clients ?? []}
        total={list.data?.total ?? 0}
        loading={list.isPending}
        unavailable={isUnavailable(list)}
        empty={t.customers.empty}
        controls={controls}
        removal={removal}
        confirm={{ title: t.customers.confirmRemove, text: t.customers.confirmRemoveText }}
      />
    </section>
  );
}

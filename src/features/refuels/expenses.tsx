/** Other costs of a vehicle (toll, fine, washing, parking, tyres, insurance, others). */
import { expensesApi } from '../../api/refuels';
import {
  EXPENSE_CATEGORIES,
  EXPENSE_CATEGORY_LABELS,
  type Expense,
  ExpenseCreateSchema,
} from '../../contract';
import { t } from '../../i18n/pt-BR';
import { refuelsText } from '../../i18n/refuels';
import { formatCurrency, formatDay } from '../../lib/format';
import { reportDay } from '../../lib/report-period';
import { clear, messages, opt, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { useVehicleChoices } from '../../shared/vehicles/useVehicleOptions';
import { decimal } from './refuels';

const text = refuelsText;

type ExpenseValues = {
  clientId: string | null;
  vehicleId: string;
  date: string;
  category: string;
  amount: string;
  description: string;
  active: boolean;
};

export const expenseScreen: ResourceConfig<
  Expense,
  Awaited<ReturnType<typeof expensesApi.list>>,
  ExpenseValues
> = {
  title: text.expenses,
  newTitle: text.newExpense,
  basePath: '/fleet-management/expenses',
  api: expensesApi,
  items: (p) => p.expenses,
  total: (p) => p.total,
  nameOf: (e) => `${EXPENSE_CATEGORY_LABELS[e.category]} ${formatDay(e.date)}`,
  byClient: true,
  searchLabel: text.searchExpenses,
  defaultSort: 'date',
  columns: [
    {
      id: 'date',
      label: text.date,
      sortable: true,
      rowHeader: true,
      render: (e) => formatDay(e.date),
    },
    { id: 'plate', label: text.vehicle, render: (e) => e.plate ?? '—' },
    { id: 'category', label: text.category, render: (e) => EXPENSE_CATEGORY_LABELS[e.category] },
    { id: 'amount', label: text.amount, render: (e) => formatCurrency(e.amount) },
    { id: 'description', label: text.description, render: (e) => e.description ?? '—' },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: text.customer, kind: 'customer' },
    { key: 'vehicleId', label: text.vehicle, kind: 'select', required: true },
    { key: 'date', label: text.date, type: 'date', required: true },
    {
      key: 'category',
      label: text.category,
      kind: 'select',
      required: true,
      options: EXPENSE_CATEGORIES.map((c) => ({ value: c, label: EXPENSE_CATEGORY_LABELS[c] })),
    },
    { key: 'amount', label: text.amount, required: true },
    { key: 'description', label: text.description },
    { key: 'active', label: t.screens.fleets.status, kind: 'switch' },
  ],
  useOptions: (values) => ({ vehicleId: useVehicleChoices(values.clientId) }),
  empty: (clientId) => ({
    clientId,
    vehicleId: '',
    date: reportDay(Date.now()),
    category: '',
    amount: '',
    description: '',
    active: true,
  }),
  fromItem: (e) => ({
    clientId: e.clientId,
    vehicleId: e.vehicleId,
    date: e.date,
    category: e.category,
    amount: String(e.amount).replace('.', ','),
    description: e.description ?? '',
    active: e.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    vehicleId: x.vehicleId || undefined,
    date: x.date || undefined,
    category: x.category || undefined,
    amount: decimal(x.amount),
    description: editing ? clear(x.description, editing) : opt(x.description),
    active: x.active,
  }),
  schema: ExpenseCreateSchema,
  messages: messages(text.expenseMessages.one, 'a', text.expenseMessages.many),
};

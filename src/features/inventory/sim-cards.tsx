/** SIM cards (SPEC §7 registros/simcard). */
import { simCardsApi } from '../../api/resources';
import { type SimCard, SimCardCreateSchema } from '../../contract';
import { maskPhone } from '../../lib/masks';
import { clear, messages, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import '../../ui/Choice.css';

type SimValues = {
  clientId: string | null;
  iccid: string;
  phoneNumber: string;
  carrier: string;
  apn: string;
  active: boolean;
};
export const simCardScreen: ResourceConfig<
  SimCard,
  Awaited<ReturnType<typeof simCardsApi.list>>,
  SimValues
> = {
  title: 'Chips (SIM)',
  newTitle: 'Novo chip',
  basePath: '/management/simcards',
  api: simCardsApi,
  items: (p) => p.simcards,
  total: (p) => p.total,
  nameOf: (s) => s.iccid,
  byClient: true,
  searchLabel: 'Buscar chips (ICCID, linha, operadora)',
  defaultSort: 'iccid',
  columns: [
    { id: 'iccid', label: 'ICCID', sortable: true, render: (s) => s.iccid },
    {
      id: 'phone',
      label: 'Linha',
      render: (s) => (s.phoneNumber ? maskPhone(s.phoneNumber) : '—'),
    },
    { id: 'carrier', label: 'Operadora', sortable: true, render: (s) => s.carrier ?? '—' },
    { id: 'apn', label: 'APN', render: (s) => s.apn ?? '—' },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: 'Cliente', kind: 'customer' },
    {
      key: 'iccid',
      label: 'ICCID',
      required: true,
      kind: 'number',
      description: '19 ou 20 dígitos, começando por 89',
    },
    { key: 'phoneNumber', label: 'Linha', type: 'tel', mask: maskPhone },
    { key: 'carrier', label: 'Operadora' },
    { key: 'apn', label: 'APN' },
    { key: 'active', label: 'Status', kind: 'switch' },
  ],
  empty: (clientId) => ({
    clientId,
    iccid: '',
    phoneNumber: '',
    carrier: '',
    apn: '',
    active: true,
  }),
  fromItem: (s) => ({
    clientId: s.clientId,
    iccid: s.iccid,
    phoneNumber: s.phoneNumber ? maskPhone(s.phoneNumber) : '',
    carrier: s.carrier ?? '',
    apn: s.apn ?? '',
    active: s.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    iccid: x.iccid,
    phoneNumber: clear(x.phoneNumber, editing),
    carrier: clear(x.carrier, editing),
    apn: clear(x.apn, editing),
    active: x.active,
  }),
  schema: SimCardCreateSchema,
  messages: messages('chip', 'o', 'chips'),
};

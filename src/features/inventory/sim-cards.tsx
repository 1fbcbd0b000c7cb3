/** SIM cards (SPEC §7 registros/simcard). */
import { simCardsApi } from '../../api/resources';
import { type SimCard, SimCardCreateSchema } from '../../contract';
import { maskPhone } from '../../lib/masks';
import { clear, messages, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import '../../ui/Choice.css';
import { t } from '../../i18n/pt-BR';

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
  title: t.screens.simCards.chipsSim,
  newTitle: t.screens.simCards.novoChip,
  basePath: '/management/simcards',
  api: simCardsApi,
  items: (p) => p.simcards,
  total: (p) => p.total,
  nameOf: (s) => s.iccid,
  byClient: true,
  searchLabel: t.screens.simCards.buscarChipsIccidLinha,
  defaultSort: 'iccid',
  columns: [
    { id: 'iccid', label: t.screens.simCards.iccid, sortable: true, render: (s) => s.iccid },
    {
      id: 'phone',
      label: t.screens.simCards.linha,
      render: (s) => (s.phoneNumber ? maskPhone(s.phoneNumber) : '—'),
    },
    {
      id: 'carrier',
      label: t.screens.simCards.operadora,
      sortable: true,
      render: (s) => s.carrier ?? '—',
    },
    { id: 'apn', label: t.screens.simCards.apn, render: (s) => s.apn ?? '—' },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: t.screens.simCards.cliente, kind: 'customer' },
    {
      key: 'iccid',
      label: t.screens.simCards.iccid,
      required: true,
      kind: 'number',
      description: t.screens.simCards.n19Ou20Digitos,
    },
    { key: 'phoneNumber', label: t.screens.simCards.linha, type: 'tel', mask: maskPhone },
    { key: 'carrier', label: t.screens.simCards.operadora },
    { key: 'apn', label: t.screens.simCards.apn },
    { key: 'active', label: t.screens.simCards.status, kind: 'switch' },
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

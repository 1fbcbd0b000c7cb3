/** Drivers (SPEC §7 registros/driver): mirrored on the device; only active ones by default. */
import { driversApi } from '../../api/resources';
import { type Driver, DriverCreateSchema, LICENSE_CATEGORIES } from '../../contract';
import { useMirroredDriver, useMirroredDrivers } from '../../db/hooks';
import { licenseExpiryText, licenseState, licenseWarning } from '../../lib/license';
import { maskCpf, maskPhone } from '../../lib/masks';
import { matchesSearch } from '../../lib/text';
import { clear, messages, statusColumn } from '../../shared/resources/helpers';
import type { ResourceConfig } from '../../shared/resources/resource';
import { DriverAssignments } from './DriverAssignments';
import { DriverLinks } from './DriverLinks';
import '../../ui/Choice.css';
import '../../ui/badge.css';
import { t } from '../../i18n/pt-BR';

type DriverValues = {
  clientId: string | null;
  completName: string;
  cpf: string;
  rfidCode: string;
  licenseNumber: string;
  licenseCategory: string;
  licenseExpiry: string;
  phone: string;
  active: boolean;
};
export const driverScreen: ResourceConfig<
  Driver,
  Awaited<ReturnType<typeof driversApi.list>>,
  DriverValues
> = {
  title: t.screens.drivers.motoristas,
  newTitle: t.screens.drivers.novoMotorista,
  basePath: '/management/drivers',
  api: driversApi,
  items: (p) => p.drivers,
  total: (p) => p.total,
  nameOf: (d) => d.completName,
  byClient: true,
  searchLabel: t.screens.drivers.buscarMotoristasNomeCpf,
  defaultSort: 'completName',
  columns: [
    {
      id: 'completName',
      label: t.screens.drivers.nome,
      sortable: true,
      render: (d) => d.completName,
    },
    { id: 'cpf', label: t.screens.drivers.cpf, render: (d) => maskCpf(d.cpf) },
    { id: 'rfid', label: t.screens.drivers.rfid, render: (d) => d.rfidCode ?? '—' },
    {
      id: 'license',
      label: t.screens.drivers.cnh,
      render: (d) => {
        const text =
          [d.licenseCategory, d.licenseExpiry && licenseExpiryText(d.licenseExpiry)]
            .filter(Boolean)
            .join(' · ') || '—';
        const state = d.licenseExpiry ? licenseState(d.licenseExpiry) : undefined;
        if (!state || state.kind === 'valid') return text;
        return (
          <span className="badges">
            {text}
            <span
              className={`badge ${state.kind === 'expired' ? 'badge-danger' : 'badge-warning'}`}
            >
              {state.kind === 'expired'
                ? t.screens.drivers.cnhVencida
                : t.screens.drivers.venceEmBreve}
            </span>
          </span>
        );
      },
    },
    statusColumn,
  ],
  fields: [
    { key: 'clientId', label: t.screens.drivers.cliente, kind: 'customer' },
    { key: 'completName', label: t.screens.drivers.nomeCompleto, required: true },
    { key: 'cpf', label: t.screens.drivers.cpf, mask: maskCpf, required: true },
    {
      key: 'rfidCode',
      label: t.screens.drivers.codigoRfidIbutton,
      description: t.screens.drivers.emHexadecimalComoLido,
    },
    { key: 'licenseNumber', label: t.screens.drivers.numeroDaCnh, kind: 'number' },
    {
      key: 'licenseCategory',
      label: t.screens.drivers.categoriaDaCnh,
      kind: 'select',
      options: LICENSE_CATEGORIES.map((c) => ({ value: c, label: c })),
    },
    {
      key: 'licenseExpiry',
      label: t.screens.drivers.validadeDaCnh,
      type: 'date',
      warningOf: (values) => licenseWarning(values.licenseExpiry),
    },
    { key: 'phone', label: t.screens.drivers.telefone, type: 'tel', mask: maskPhone },
    { key: 'active', label: t.screens.drivers.status, kind: 'switch' },
  ],
  empty: (clientId) => ({
    clientId,
    completName: '',
    cpf: '',
    rfidCode: '',
    licenseNumber: '',
    licenseCategory: '',
    licenseExpiry: '',
    phone: '',
    active: true,
  }),
  fromItem: (d) => ({
    clientId: d.clientId,
    completName: d.completName,
    cpf: maskCpf(d.cpf),
    rfidCode: d.rfidCode ?? '',
    licenseNumber: d.licenseNumber ?? '',
    licenseCategory: d.licenseCategory ?? '',
    licenseExpiry: d.licenseExpiry ?? '',
    phone: d.phone ? maskPhone(d.phone) : '',
    active: d.active,
  }),
  toPayload: (x, editing) => ({
    clientId: x.clientId ?? undefined,
    completName: x.completName,
    cpf: x.cpf,
    rfidCode: clear(x.rfidCode, editing),
    licenseNumber: clear(x.licenseNumber, editing),
    licenseCategory: clear(x.licenseCategory, editing),
    licenseExpiry: clear(x.licenseExpiry, editing),
    phone: clear(x.phone, editing),
    active: x.active,
  }),
  schema: DriverCreateSchema,
  messages: messages('motorista', 'o', 'motoristas'),
  mirror: {
    useRows: useMirroredDrivers,
    useItem: useMirroredDriver,
    matches: (d, q) => matchesSearch(`${d.completName} ${d.cpf} ${d.rfidCode ?? ''}`, q),
    sortValue: (d, column) => (column === 'createdAt' ? d.createdAt : d.completName),
    shown: (d) => d.active,
  },
  extra: (driver) => (
    <>
      <DriverAssignments driver={driver} />
      <DriverLinks driver={driver} />
    </>
  ),
};

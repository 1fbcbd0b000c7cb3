/** /management/customers/create and /management/customers/:id: the customer form. */
import { type FormEvent, useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { createCustomer, lookupCep, updateCustomer } from '../../api/customers';
import { toClientError } from '../../api/errors';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import {
  BRAZIL_STATES,
  type Customer,
  CustomerCreateSchema,
  PERSON_KIND_LABELS,
  PERSON_KINDS,
  type PersonKind,
} from '../../contract';
import { useCan } from '../../hooks/useCan';
import { useInvalidate } from '../../hooks/useInvalidate';
import { useRecordForm } from '../../hooks/useRecordForm';
import { useSession } from '../../hooks/useSession';
import { customerTwoFactorText } from '../../i18n/customer-two-factor';
import { t } from '../../i18n/pt-BR';
import { maskCep, maskCnpj, maskCpf, maskPhone } from '../../lib/masks';
import { unmask } from '../../lib/unmask';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { RadioGroup, Switch } from '../../ui/Choice';
import { FormActions } from '../../ui/FormActions';
import { toast } from '../../ui/feedback/toasts';
import { Select } from '../../ui/Select';
import { Loading, OfflineRecord } from '../../ui/States';
import { TextField } from '../../ui/TextField';
import { useCustomer } from './queries';
import '../../ui/page.css';
import '../../ui/text.css';

const EMPTY = {
  personKind: 'juridical' as PersonKind,
  name: '',
  corporateName: '',
  document: '',
  email: '',
  supportEmail: '',
  phone: '',
  motherCompanyId: null as string | null,
  active: true,
  requireTwoFactor: false,
  cep: '',
  street: '',
  number: '',
  complement: '',
  district: '',
  city: '',
  state: '',
};
type Values = typeof EMPTY;

function fromCustomer(c: Customer): Values {
  const a = c.address;
  return {
    personKind: c.personKind,
    name: c.name,
    corporateName: c.corporateName ?? '',
    document: c.clientCNPJ ? maskCnpj(c.clientCNPJ) : maskCpf(c.clientCPF ?? ''),
    email: c.email ?? '',
    supportEmail: c.supportEmail ?? '',
    phone: c.phone ? maskPhone(c.phone) : '',
    motherCompanyId: c.motherCompanyId,
    active: c.active,
    requireTwoFactor: c.requireTwoFactor,
    cep: a.cep ? maskCep(a.cep) : '',
    street: a.street ?? '',
    number: a.number ?? '',
    complement: a.complement ?? '',
    district: a.district ?? '',
    city: a.city ?? '',
    state: a.state ?? '',
  };
}

/** Form values as the API wants them; empty text becomes null (cleared) or absent. */
function toPayload(values: Values, clear: boolean) {
  const opt = (value: string) => (value.trim() === '' ? (clear ? null : undefined) : value.trim());
  return {
    personKind: values.personKind,
    name: values.name,
    corporateName: opt(values.corporateName),
    clientCPF: values.personKind === 'fisical' ? opt(values.document) : undefined,
    clientCNPJ: values.personKind === 'juridical' ? opt(values.document) : undefined,
    email: opt(values.email),
    supportEmail: opt(values.supportEmail),
    phone: opt(values.phone),
    motherCompanyId: values.motherCompanyId ?? undefined,
    active: values.active,
    requireTwoFactor: values.requireTwoFactor,
    address: {
      cep: opt(values.cep),
      street: opt(values.street),
      number: opt(values.number),
      complement: opt(values.complement),
      district: opt(values.district),
      city: opt(values.city),
      state: opt(values.state),
    },
  };
}

const ADDRESS_FIELDS = ['street', 'number', 'complement', 'district', 'city'] as const;

const FIELD_OF: Record<string, string> = { clientCPF: 'document', clientCNPJ: 'document' };
const fieldOf = (path: string) => FIELD_OF[path] ?? path.replace(/^address\./, '');

export function CustomerPage() {
  const { id } = useParams();
  const creating = !id;
  const navigate = useNavigate();
  const current = useSession();
  const canEdit = useCan('CrudCompany');
  const readOnly = !canEdit;
  const invalidate = useInvalidate();
  const loaded = useCustomer(id);
  const form = useRecordForm<Values>({ ...EMPTY, motherCompanyId: current?.user.clientId ?? null });
  const { values, set, errors } = form;
  const [cepNote, setCepNote] = useState<string>();
  const own = id === current?.user.clientId;

  const { setValues } = form;
  useEffect(() => {
    if (loaded.data) setValues(fromCustomer(loaded.data));
  }, [loaded.data, setValues]);

  async function fillFromCep(masked: string) {
    const cep = unmask(masked);
    if (cep.length !== 8) return;
    try {
      const found = await lookupCep(cep);
      setValues((v) => ({
        ...v,
        street: found.street,
        district: found.district,
        city: found.city,
        state: found.state,
      }));
      setCepNote(t.customers.cepFilled);
    } catch (err) {
      setCepNote((await toClientError(err)).message);
    }
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const payload = toPayload(values, false);
    if (!form.check(CustomerCreateSchema, payload, fieldOf)) return;
    await form.submit(
      t.customers.saveError,
      async () => {
        if (creating) {
          const created = await createCustomer(payload as Parameters<typeof createCustomer>[0]);
          toast.success(t.customers.created);
          await invalidate(keys.customers);
          // Pending until the customer's page shows (its route waits for its code first).
          await navigate(`/management/customers/${created.id}`, { replace: true });
        } else {
          const body = toPayload(values, true);
          if (own) body.motherCompanyId = undefined;
          await updateCustomer(id, body as Parameters<typeof updateCustomer>[1]);
          toast.success(t.customers.saved);
          await invalidate(keys.customers);
        }
      },
      fieldOf,
    );
  }

  if (!creating && isUnavailable(loaded))
    return <OfflineRecord title={t.customers.title} back={'/management/customers'} />;
  if (!creating && loaded.isPending) return <Loading label={t.list.loading} />;
  const juridical = values.personKind === 'juridical';
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">
          {creating
            ? t.customers.newTitle
            : readOnly
              ? (loaded.data?.name ?? '')
              : `${t.customers.editTitle}: ${loaded.data?.name ?? ''}`}
        </h1>
      </div>
      {readOnly && <p className="muted">{t.list.readOnly}</p>}
      <Form ref={form.formRef} className="form form-grid" onSubmit={save} validationBehavior="aria">
        <fieldset className="form-fields" disabled={readOnly}>
          <RadioGroup
            label={t.customers.kind}
            value={values.personKind}
            onChange={(kind) => {
              set('personKind')(kind);
              set('document')('');
            }}
            options={PERSON_KINDS.map((kind) => ({ label: PERSON_KIND_LABELS[kind], value: kind }))}
          />
          <TextField
            label={t.customers.name}
            value={values.name}
            onChange={set('name')}
            errorMessage={errors.name}
            isRequired
          />
          {juridical && (
            <TextField
              label={t.customers.corporateName}
              value={values.corporateName}
              onChange={set('corporateName')}
              errorMessage={errors.corporateName}
            />
          )}
          <TextField
            label={juridical ? t.customers.cnpj : t.customers.cpf}
            value={values.document}
            onChange={(value) => set('document')(juridical ? maskCnpj(value) : maskCpf(value))}
            errorMessage={errors.document}
            isRequired
            inputMode={juridical ? 'text' : 'numeric'}
          />
          <TextField
            label={t.customers.email}
            type="email"
            value={values.email}
            onChange={set('email')}
            errorMessage={errors.email}
          />
          <TextField
            label={t.customers.supportEmail}
            type="email"
            value={values.supportEmail}
            onChange={set('supportEmail')}
            errorMessage={errors.supportEmail}
          />
          <TextField
            label={t.customers.phone}
            type="tel"
            value={values.phone}
            onChange={(value) => set('phone')(maskPhone(value))}
            errorMessage={errors.phone}
          />
          {!own && (
            <CustomerPicker
              label={t.customers.mother}
              value={values.motherCompanyId}
              onChange={set('motherCompanyId')}
              errorMessage={errors.motherCompanyId}
              isRequired
            />
          )}
          <fieldset className="fieldset">
            <legend>{t.customers.address}</legend>
            <TextField
              label={t.customers.cep}
              value={values.cep}
              inputMode="numeric"
              onChange={(value) => {
                const masked = maskCep(value);
                set('cep')(masked);
                setCepNote(undefined);
                if (unmask(masked).length === 8) void fillFromCep(masked);
              }}
              description={cepNote}
              errorMessage={errors.cep}
            />
            {ADDRESS_FIELDS.map((key) => (
              <TextField
                key={key}
                label={t.customers[key]}
                value={values[key]}
                onChange={set(key)}
                errorMessage={errors[key]}
              />
            ))}
            <Select
              label={t.customers.state}
              value={values.state || null}
              onChange={set('state')}
              options={BRAZIL_STATES.map((uf) => ({ label: uf, value: uf }))}
              errorMessage={errors.state}
            />
          </fieldset>
          {!own && (
            <Switch isSelected={values.active} onChange={set('active')}>
              {t.list.active}
            </Switch>
          )}
          <Switch isSelected={values.requireTwoFactor} onChange={set('requireTwoFactor')}>
            {customerTwoFactorText.requireSwitch}
          </Switch>
        </fieldset>
        <FormActions
          back="/management/customers"
          pending={form.pending}
          error={form.formError}
          readOnly={readOnly}
        />
      </Form>
    </section>
  );
}

/**
 * /management/users/create and /management/users/:id. The level selector offers only the
 * levels SPEC §6 lets the signed-in user hand out; the server checks the same rules.
 */
import { type FormEvent, useEffect } from 'react';
import { Form } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { keys } from '../../api/keys';
import { isUnavailable } from '../../api/query';
import { createUser, updateUser } from '../../api/users';
import {
  assignableRoles,
  canAssignRole,
  ROLE_LABELS,
  ROLE_SELECTOR_LABELS,
  type Role,
  UserCreateSchema,
} from '../../contract';
import { useInvalidate } from '../../hooks/useInvalidate';
import { useRecordForm } from '../../hooks/useRecordForm';
import { useSession } from '../../hooks/useSession';
import { t } from '../../i18n/pt-BR';
import { CustomerPicker } from '../../shared/customers/CustomerPicker';
import { useSelectedClient } from '../../shared/customers/useCustomers';
import { Switch } from '../../ui/Choice';
import { FormActions } from '../../ui/FormActions';
import { toast } from '../../ui/feedback/toasts';
import { Select } from '../../ui/Select';
import { FormMessage, Loading, OfflineRecord } from '../../ui/States';
import { PasswordField, TextField } from '../../ui/TextField';
import { useUser } from './useUsers';
import { VisitorVehicles } from './VisitorVehicles';
import '../../ui/page.css';

interface Values extends Record<string, unknown> {
  name: string;
  email: string;
  role: Role | null;
  clientId: string | null;
  active: boolean;
  /** Asked only when users change their own e-mail (the server refuses it otherwise). */
  currentPassword: string;
}

export function UserPage() {
  const { id } = useParams();
  const creating = !id;
  const navigate = useNavigate();
  const me = useSession()?.user;
  const [selectedClient] = useSelectedClient();
  const loaded = useUser(id);
  const invalidate = useInvalidate();
  const form = useRecordForm<Values>({
    name: '',
    email: '',
    role: null,
    clientId: selectedClient,
    active: true,
    currentPassword: '',
  });
  const { values, set, errors, setValues } = form;
  const self = id === me?.id;
  const ownEmailChanged =
    self && loaded.data !== undefined && values.email.trim().toLowerCase() !== loaded.data.email;

  useEffect(() => {
    const u = loaded.data;
    if (u)
      setValues({
        name: u.name,
        email: u.email,
        role: u.role,
        clientId: u.clientId,
        active: u.active === 1,
        currentPassword: '',
      });
  }, [loaded.data, setValues]);

  const actorRole = me?.role ?? 'VISITOR';
  const roles = assignableRoles(actorRole);
  const locked =
    !creating && loaded.data !== undefined && !self && !canAssignRole(actorRole, loaded.data.role);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const payload = {
      name: values.name,
      email: values.email,
      role: values.role ?? undefined,
      clientId: values.clientId ?? undefined,
      active: values.active,
    };
    if (!form.check(UserCreateSchema, payload)) return;
    await form.submit(t.users.saveError, async () => {
      if (creating) {
        await createUser(payload as Parameters<typeof createUser>[0]);
        toast.success(t.users.created);
        await invalidate(keys.users);
        await navigate('/management/users');
      } else {
        const body = self
          ? {
              name: payload.name,
              email: payload.email,
              ...(ownEmailChanged ? { currentPassword: values.currentPassword } : {}),
            }
          : payload;
        await updateUser(id, body as Parameters<typeof updateUser>[1]);
        toast.success(ownEmailChanged ? t.users.emailConfirmSent : t.users.saved);
        await invalidate(keys.users);
        await navigate('/management/users');
      }
    });
  }

  if (!creating && isUnavailable(loaded))
    return <OfflineRecord title={t.users.title} back={'/management/users'} />;
  if (!creating && loaded.isPending) return <Loading label={t.list.loading} />;
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">
          {creating ? t.users.newTitle : `${t.users.editTitle}: ${loaded.data?.name ?? ''}`}
        </h1>
      </div>
      {locked && loaded.data && (
        <FormMessage kind="error">
          Você não pode alterar um usuário de nível {ROLE_LABELS[loaded.data.role]}.
        </FormMessage>
      )}
      <Form ref={form.formRef} className="form form-grid" onSubmit={save} validationBehavior="aria">
        <TextField
          label={t.users.name}
          value={values.name}
          onChange={set('name')}
          errorMessage={errors.name}
          isRequired
          isDisabled={locked}
        />
        <TextField
          label={t.users.email}
          type="email"
          value={values.email}
          onChange={set('email')}
          errorMessage={errors.email}
          isRequired
          isDisabled={locked}
        />
        {ownEmailChanged && (
          <PasswordField
            label={t.users.currentPassword}
            description={t.users.currentPasswordHint}
            value={values.currentPassword}
            onChange={set('currentPassword')}
            errorMessage={errors.currentPassword}
            isRequired
            autoComplete="current-password"
          />
        )}
        <Select
          label={t.users.level}
          value={values.role}
          onChange={(value) => set('role')(value as Role)}
          options={
            (locked || self) && values.role
              ? [{ label: ROLE_SELECTOR_LABELS[values.role], value: values.role }]
              : roles.map((r) => ({ label: ROLE_SELECTOR_LABELS[r], value: r }))
          }
          errorMessage={errors.role}
          isRequired
          isDisabled={locked || self}
        />
        {!self && (
          <CustomerPicker
            value={values.clientId}
            onChange={set('clientId')}
            errorMessage={errors.clientId}
            isRequired
          />
        )}
        {!self && !creating && (
          <Switch isSelected={values.active} onChange={set('active')} isDisabled={locked}>
            {t.list.active}
          </Switch>
        )}
        <FormActions
          back="/management/users"
          pending={form.pending}
          isDisabled={locked}
          error={form.formError}
        />
      </Form>
      {!creating && loaded.data?.role === 'VISITOR' && !locked && (
        <VisitorVehicles userId={loaded.data.id} clientId={loaded.data.clientId} />
      )}
    </section>
  );
}

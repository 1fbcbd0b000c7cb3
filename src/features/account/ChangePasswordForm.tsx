/**
 * 'Minha conta' › Trocar senha: the current password and the new one (twice). The rules are
 * the contract's (ChangePasswordRequestSchema), checked here and again by the server; a wrong
 * current password comes back as the server's pt-BR message under its field.
 */
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import * as v from 'valibot';
import { changePassword } from '../../api/auth';
import { toClientError } from '../../api/errors';
import { ChangePasswordRequestSchema, flattenIssues } from '../../contract';
import { requireOnline } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import { FormMessage } from '../../ui/States';
import { PasswordField } from '../../ui/TextField';
import '../../ui/page.css';

type Errors = Partial<Record<'currentPassword' | 'newPassword' | 'confirm' | 'form', string>>;

export function ChangePasswordForm() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next: Errors = {};
    const parsed = v.safeParse(ChangePasswordRequestSchema, { currentPassword, newPassword });
    if (!parsed.success)
      for (const issue of flattenIssues(parsed.issues))
        next[issue.path as 'currentPassword' | 'newPassword'] ??= issue.message;
    if (confirm !== newPassword) next.confirm = t.password.mismatch;
    setErrors(next);
    if (Object.values(next).some(Boolean) || !requireOnline()) return;
    setPending(true);
    try {
      toast.success(await changePassword({ currentPassword, newPassword }));
      setCurrent('');
      setNew('');
      setConfirm('');
    } catch (err) {
      const failure = await toClientError(err);
      const field = failure.issues?.find(
        (i) => i.path === 'currentPassword' || i.path === 'newPassword',
      );
      setErrors(field ? { [field.path]: field.message } : { form: failure.message });
    } finally {
      setPending(false);
    }
  }

  return (
    <Form
      onSubmit={submit}
      className="form"
      validationBehavior="aria"
      aria-labelledby="change-password"
    >
      {errors.form && <FormMessage kind="error">{errors.form}</FormMessage>}
      <PasswordField
        label={t.account.current}
        autoComplete="current-password"
        value={currentPassword}
        onChange={setCurrent}
        errorMessage={errors.currentPassword}
        isRequired
      />
      <PasswordField
        label={t.password.newPassword}
        autoComplete="new-password"
        description={t.password.rules}
        value={newPassword}
        onChange={setNew}
        errorMessage={errors.newPassword}
        isRequired
      />
      <PasswordField
        label={t.password.confirm}
        autoComplete="new-password"
        value={confirm}
        onChange={setConfirm}
        errorMessage={errors.confirm}
        isRequired
      />
      <div>
        <Button type="submit" isPending={pending}>
          {pending ? t.account.changing : t.account.change}
        </Button>
      </div>
    </Form>
  );
}

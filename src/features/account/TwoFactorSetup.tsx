/**
 * Turning two-step sign-in on: the password, then the QR code (and its key as text, for
 * typing by hand) with the first code, then the ten recovery codes. Used in 'Minha conta'
 * and on the screen a company's requirement shows before anything else.
 */
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { toClientError } from '../../api/errors';
import { enableTwoFactor, startTwoFactorSetup } from '../../api/two-factor';
import type { TwoFactorSetup as Setup } from '../../contract';
import { requireOnline } from '../../hooks/feedback';
import { twoFactorText as tt } from '../../i18n/two-factor';
import { Button } from '../../ui/Button';
import { FormMessage } from '../../ui/States';
import { PasswordField, TextField } from '../../ui/TextField';
import { RecoveryCodes } from './RecoveryCodes';
import './TwoFactor.css';

type Step =
  | { kind: 'password' }
  | { kind: 'scan'; setup: Setup }
  | { kind: 'codes'; codes: string[] };

export function TwoFactorSetup({
  onEnabled,
  onDone,
  onCancel,
}: {
  /** Two steps are on (the recovery codes are being shown). */
  onEnabled?: () => void;
  /** The person kept the recovery codes. */
  onDone: () => void;
  onCancel?: () => void;
}) {
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ field?: string; form?: string }>({});
  const [pending, setPending] = useState(false);

  async function run(action: () => Promise<void>) {
    if (!requireOnline()) return;
    setPending(true);
    setErrors({});
    try {
      await action();
    } catch (err) {
      const failure = await toClientError(err);
      const issue = failure.issues?.[0];
      setErrors(issue ? { field: issue.message } : { form: failure.message });
    } finally {
      setPending(false);
    }
  }

  function submitPassword(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(async () => {
      const setup = await startTwoFactorSetup(password);
      setPassword('');
      setStep({ kind: 'scan', setup });
    });
  }

  function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(async () => {
      const codes = await enableTwoFactor(code.replace(/\s/g, ''));
      setStep({ kind: 'codes', codes });
      onEnabled?.();
    });
  }

  if (step.kind === 'codes') return <RecoveryCodes codes={step.codes} onDone={onDone} />;

  if (step.kind === 'scan') {
    const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(step.setup.qrSvg)}`;
    return (
      <Form onSubmit={submitCode} className="form two-factor-setup" validationBehavior="aria">
        {errors.form && <FormMessage kind="error">{errors.form}</FormMessage>}
        <h3>{tt.scanStep}</h3>
        <div className="two-factor-qr">
          <img src={qr} alt={tt.qrAlt} width={200} height={200} />
          <div className="two-factor-secret">
            <span className="muted" id="two-factor-secret-label">
              {tt.manualEntry}
            </span>
            <code aria-describedby="two-factor-secret-label" data-testid="two-factor-secret">
              {step.setup.secret.replace(/(.{4})/g, '$1 ').trim()}
            </code>
          </div>
        </div>
        <h3>{tt.confirmStep}</h3>
        <TextField
          label={tt.code}
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9 ]*"
          maxLength={7}
          value={code}
          onChange={setCode}
          errorMessage={errors.field}
          isRequired
          autoFocus
        />
        <div className="two-factor-actions">
          <Button type="submit" isPending={pending}>
            {pending ? tt.confirming : tt.confirm}
          </Button>
          {onCancel && (
            <Button variant="ghost" onPress={onCancel}>
              {tt.cancel}
            </Button>
          )}
        </div>
      </Form>
    );
  }

  return (
    <Form onSubmit={submitPassword} className="form two-factor-setup" validationBehavior="aria">
      {errors.form && <FormMessage kind="error">{errors.form}</FormMessage>}
      <p className="muted">{tt.passwordStep}</p>
      <PasswordField
        label={tt.currentPassword}
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        errorMessage={errors.field}
        isRequired
        autoFocus
      />
      <div className="two-factor-actions">
        <Button type="submit" isPending={pending}>
          {tt.next}
        </Button>
        {onCancel && (
          <Button variant="ghost" onPress={onCancel}>
            {tt.cancel}
          </Button>
        )}
      </div>
    </Form>
  );
}

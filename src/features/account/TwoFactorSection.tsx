/**
 * 'Minha conta' › Verificação em duas etapas: whether it is on, turning it on (TwoFactorSetup),
 * off, and new recovery codes — both of these with the password and a code (or a recovery
 * code).
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Form } from 'react-aria-components';
import { toClientError } from '../../api/errors';
import { disableTwoFactor, regenerateRecoveryCodes, twoFactorStatus } from '../../api/two-factor';
import type { TwoFactorStatus } from '../../contract';
import { requireOnline } from '../../hooks/feedback';
import { useOnline } from '../../hooks/useOnline';
import { twoFactorText as tt } from '../../i18n/two-factor';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import { FormMessage } from '../../ui/States';
import { PasswordField, TextField } from '../../ui/TextField';
import { RecoveryCodes } from './RecoveryCodes';
import { TwoFactorSetup } from './TwoFactorSetup';
import './TwoFactor.css';

type Mode = 'idle' | 'setup' | 'disable' | 'regenerate';

function ConfirmForm({
  kind,
  onDone,
  onCancel,
}: {
  kind: 'disable' | 'regenerate';
  onDone: (codes?: string[]) => void;
  onCancel: () => void;
}) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!requireOnline()) return;
    setPending(true);
    setErrors({});
    const body = recovery
      ? { currentPassword: password, recoveryCode: code }
      : { currentPassword: password, code: code.replace(/\s/g, '') };
    try {
      if (kind === 'disable') {
        toast.success(await disableTwoFactor(body));
        onDone();
      } else onDone(await regenerateRecoveryCodes(body));
    } catch (err) {
      const failure = await toClientError(err);
      const issue = failure.issues?.[0];
      const field = issue?.path === 'currentPassword' ? 'password' : 'code';
      setErrors(issue ? { [field]: issue.message } : { form: failure.message });
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="form two-factor-setup" validationBehavior="aria">
      {errors.form && <FormMessage kind="error">{errors.form}</FormMessage>}
      <p className="muted">{kind === 'disable' ? tt.disableIntro : tt.regenerateIntro}</p>
      <PasswordField
        label={tt.currentPassword}
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        errorMessage={errors.password}
        isRequired
        autoFocus
      />
      {recovery ? (
        <TextField
          key="recovery"
          label={tt.recoveryCode}
          autoComplete="off"
          maxLength={40}
          value={code}
          onChange={setCode}
          errorMessage={errors.code}
          isRequired
        />
      ) : (
        <TextField
          key="code"
          label={tt.code}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={7}
          value={code}
          onChange={setCode}
          errorMessage={errors.code}
          isRequired
        />
      )}
      <div className="two-factor-actions">
        <Button
          type="submit"
          variant={kind === 'disable' ? 'danger' : 'primary'}
          isPending={pending}
        >
          {kind === 'disable' ? tt.turnOff : tt.regenerate}
        </Button>
        <Button
          variant="ghost"
          onPress={() => {
            setRecovery(!recovery);
            setCode('');
          }}
        >
          {recovery ? tt.useCode : tt.useRecovery}
        </Button>
        <Button variant="ghost" onPress={onCancel}>
          {tt.cancel}
        </Button>
      </div>
    </Form>
  );
}

export function TwoFactorSection() {
  const [status, setStatus] = useState<TwoFactorStatus>();
  const [error, setError] = useState<string>();
  const [mode, setMode] = useState<Mode>('idle');
  const [codes, setCodes] = useState<string[]>();
  const online = useOnline();

  const load = useCallback(() => {
    twoFactorStatus()
      .then((fresh) => {
        setStatus(fresh);
        setError(undefined);
      })
      .catch(async (err: unknown) => setError((await toClientError(err)).message));
  }, []);

  useEffect(() => {
    if (online) load();
  }, [online, load]);

  const close = () => {
    setMode('idle');
    setCodes(undefined);
    load();
  };

  return (
    <section className="panel" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{tt.title}</h2>
      <p className="muted">{tt.intro}</p>
      {error && <FormMessage kind="error">{error}</FormMessage>}
      {status && mode === 'idle' && (
        <>
          <p>
            <span className="two-factor-state">{status.enabled ? tt.on : tt.off}</span>
            {status.enabled && (
              <span className="muted"> · {tt.codesLeft(status.recoveryCodesLeft)}</span>
            )}
          </p>
          {status.required && <p className="muted">{tt.required}</p>}
          <div className="two-factor-actions">
            {!status.enabled && <Button onPress={() => setMode('setup')}>{tt.turnOn}</Button>}
            {status.enabled && (
              <Button variant="secondary" onPress={() => setMode('regenerate')}>
                {tt.regenerate}
              </Button>
            )}
            {status.enabled && !status.required && (
              <Button variant="danger" onPress={() => setMode('disable')}>
                {tt.turnOff}
              </Button>
            )}
          </div>
        </>
      )}
      {mode === 'setup' && (
        <TwoFactorSetup
          onEnabled={() => toast.success(tt.enabled)}
          onDone={close}
          onCancel={close}
        />
      )}
      {(mode === 'disable' || mode === 'regenerate') && !codes && (
        <ConfirmForm
          kind={mode}
          onCancel={close}
          onDone={(fresh) => (fresh ? setCodes(fresh) : close())}
        />
      )}
      {codes && <RecoveryCodes codes={codes} onDone={close} />}
    </section>
  );
}

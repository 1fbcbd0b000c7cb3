/**
 * The second step of a sign-in with two steps: the six digits of the authenticator app, or
 * else one of the recovery codes. Wrong codes are counted by the server like wrong passwords;
 * its message (and its 'try again in N minutes') is shown as it words it.
 */
import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { toClientError } from '../../api/errors';
import { session } from '../../api/session';
import { verifyTwoFactor } from '../../api/sign-in-code';
import { signInCodeText as tc } from '../../i18n/sign-in-code';
import { Button } from '../../ui/Button';
import { filledCheck } from '../../ui/field-checks';
import { FormMessage } from '../../ui/States';
import { TextField } from '../../ui/TextField';

export function CodeStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: string;
  onSignedIn: () => void;
  onRestart: () => void;
}) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      session.set(
        await verifyTwoFactor(
          recovery ? { challenge, recoveryCode: code } : { challenge, code: code.trim() },
        ),
      );
      onSignedIn();
    } catch (err) {
      const failure = await toClientError(err);
      // An expired or spent challenge: back to the password.
      if (failure.reason === 'TWO_FACTOR_CHALLENGE_INVALID') onRestart();
      setError(failure.message);
      setPending(false);
    }
  }

  function switchKind() {
    setRecovery(!recovery);
    setCode('');
    setError(undefined);
  }

  return (
    <Form onSubmit={submit} className="form" aria-labelledby="sign-in-code-title">
      <h2 id="sign-in-code-title" className="auth-step">
        {tc.codeTitle}
      </h2>
      {error && <FormMessage kind="error">{error}</FormMessage>}
      {recovery ? (
        <TextField
          key="recovery"
          label={tc.recoveryCode}
          description={tc.recoveryHelp}
          name="recoveryCode"
          autoComplete="off"
          value={code}
          onChange={setCode}
          isRequired
          validate={filledCheck}
          maxLength={40}
          autoFocus
        />
      ) : (
        <TextField
          key="code"
          label={tc.code}
          description={tc.codeHelp}
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9 ]*"
          maxLength={7}
          value={code}
          onChange={setCode}
          isRequired
          validate={filledCheck}
          autoFocus
        />
      )}
      <Button type="submit" isPending={pending}>
        {pending ? tc.verifying : tc.verify}
      </Button>
      <Button variant="ghost" onPress={switchKind}>
        {recovery ? tc.useCode : tc.useRecovery}
      </Button>
      <Button variant="ghost" onPress={onRestart}>
        {tc.restart}
      </Button>
    </Form>
  );
}

/**
 * 'Ativar notificações' where alerts are read: shown only while the browser has not been asked
 * yet (it ignores prompts without a user gesture); the full settings are in Minha conta.
 */
import { useState } from 'react';
import { toastError } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/feedback/toasts';
import { enablePush, pushState } from './push';

export function EnablePushButton() {
  const [state, setState] = useState(pushState);
  const [pending, setPending] = useState(false);
  if (state !== 'default') return null;
  return (
    <Button
      variant="secondary"
      isDisabled={pending}
      onPress={async () => {
        setPending(true);
        try {
          const answer = await enablePush();
          setState(answer);
          if (answer === 'granted') toast.success(t.push.enabled);
        } catch (err) {
          console.warn('push: not enabled', err);
          await toastError(t.push.error, err);
        } finally {
          setPending(false);
        }
      }}
    >
      {pending ? t.push.enabling : t.push.enable}
    </Button>
  );
}

/**
 * 'Ativar notificações', wherever it is offered (the invitation after sign-in, Minha conta,
 * the alert history): asks the browser with the person's gesture, registers this browser,
 * says so, and reports a failure in pt-BR. `afterAnswer` runs once the browser answered.
 */
import { useState } from 'react';
import { toastError } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';
import { toast } from '../../ui/feedback/toasts';
import { enablePush, type PushState, pushState } from './push';

export function useEnablePush(afterAnswer?: () => void) {
  const [state, setState] = useState<PushState>(pushState);
  const [pending, setPending] = useState(false);
  async function enable() {
    setPending(true);
    try {
      const answer = await enablePush();
      setState(answer);
      afterAnswer?.();
      if (answer === 'granted') toast.success(t.push.enabled);
    } catch (err) {
      console.warn('push: not enabled', err);
      await toastError(t.push.error, err);
    } finally {
      setPending(false);
    }
  }
  return { state, pending, enable };
}

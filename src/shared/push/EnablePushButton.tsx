/**
 * 'Ativar notificações' where alerts are read: shown only while the browser has not been asked
 * yet (it ignores prompts without a user gesture); the full settings are in Minha conta.
 */
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { useEnablePush } from './useEnablePush';

export function EnablePushButton() {
  const { state, pending, enable } = useEnablePush();
  if (state !== 'default') return null;
  return (
    <Button variant="secondary" isDisabled={pending} onPress={() => void enable()}>
      {pending ? t.push.enabling : t.push.enable}
    </Button>
  );
}

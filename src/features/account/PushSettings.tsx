/**
 * 'Notificações' in Minha conta: the visible control that asks for notification permission
 * ('Ativar notificações': browsers ignore prompts without a user gesture), then registers this
 * browser (src/features/push/push.ts); once active, which alert types reach this device, each a
 * switch saved as it changes.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { keys } from '../../api/keys';
import { deviceIdOf, listPushDevices, setPushDeviceTypes } from '../../api/push';
import { ALERT_TYPE_LABELS, ALERT_TYPES, type AlertType } from '../../contract';
import { toastError } from '../../hooks/feedback';
import { t } from '../../i18n/pt-BR';
import { storedToken } from '../../shared/push/push';
import { useEnablePush } from '../../shared/push/useEnablePush';
import { Button } from '../../ui/Button';
import { Switch } from '../../ui/Choice';
import { toast } from '../../ui/feedback/toasts';
import { FormMessage, Loading } from '../../ui/States';
import '../../ui/page.css';
import '../../ui/text.css';
import './PushSettings.css';

function AlertTypeChoices({ token }: { token: string }) {
  const client = useQueryClient();
  const device = useQuery({
    queryKey: [...keys.pushDevices, token],
    queryFn: async () => {
      const id = await deviceIdOf(token);
      const found = (await listPushDevices()).find((d) => d.id === id);
      return found ?? null;
    },
  });
  const save = useMutation({
    mutationFn: ({ id, types }: { id: string; types: AlertType[] | null }) =>
      setPushDeviceTypes(id, types),
    onSuccess: (saved) => {
      client.setQueryData([...keys.pushDevices, token], saved);
      toast.success(t.push.typesSaved);
    },
    onError: (err) => void toastError(t.push.typesError, err),
  });
  if (device.isPending) return <Loading label={t.push.loadingTypes} />;
  const current = device.data;
  if (!current) return null;
  const chosen = new Set<AlertType>(current.alertTypes ?? ALERT_TYPES);
  const toggle = (type: AlertType, on: boolean) => {
    const next = ALERT_TYPES.filter((x) => (x === type ? on : chosen.has(x)));
    save.mutate({ id: current.id, types: next.length === ALERT_TYPES.length ? null : next });
  };
  return (
    <fieldset className="push-types">
      <legend>{t.push.typesTitle}</legend>
      <p className="muted">{t.push.typesIntro}</p>
      <div className="push-types-grid">
        {ALERT_TYPES.map((type) => (
          <Switch
            key={type}
            isSelected={chosen.has(type)}
            onChange={(on) => toggle(type, on)}
            isDisabled={save.isPending}
          >
            {ALERT_TYPE_LABELS[type]}
          </Switch>
        ))}
      </div>
    </fieldset>
  );
}

export function PushSettings() {
  const [token, setToken] = useState(storedToken);
  const { state, pending, enable } = useEnablePush(() => setToken(storedToken()));

  return (
    <section className="panel" aria-labelledby="account-push">
      <h2 id="account-push">{t.push.title}</h2>
      <p className="muted">{t.push.intro}</p>
      {state === 'unsupported' && <p>{t.push.unsupported}</p>}
      {state === 'denied' && <FormMessage kind="error">{t.push.denied}</FormMessage>}
      {(state === 'default' || (state === 'granted' && !token)) && (
        <div>
          <Button onPress={() => void enable()} isDisabled={pending}>
            {pending ? t.push.enabling : t.push.enable}
          </Button>
        </div>
      )}
      {state === 'granted' && token && (
        <>
          <FormMessage kind="success">{t.push.enabled}</FormMessage>
          <AlertTypeChoices token={token} />
        </>
      )}
    </section>
  );
}

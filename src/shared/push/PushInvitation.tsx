/**
 * After sign-in, a clear invitation to turn on notifications (SPEC §4: when signed in, ask
 * notification permission). Browsers ignore or block a permission prompt that no gesture
 * asked for, so the page does not prompt by itself: this invitation's button does, with the
 * person's click. Shown while the browser has not been asked yet and until the person says
 * 'Agora não' (remembered per user on this device; Minha conta and the alert history keep the
 * same button for later). Once answered, it goes away.
 */
import { useState } from 'react';
import { t } from '../../i18n/pt-BR';
import { Button } from '../../ui/Button';
import { useEnablePush } from './useEnablePush';
import './PushInvitation.css';

const dismissedKey = (userId: string) => `pushInviteDismissed:${userId}`;

function dismissed(userId: string): boolean {
  try {
    return localStorage.getItem(dismissedKey(userId)) !== null;
  } catch {
    return false;
  }
}

export function PushInvitation({ userId }: { userId: string }) {
  const { state, pending, enable } = useEnablePush();
  const [later, setLater] = useState(() => dismissed(userId));
  if (state !== 'default' || later) return null;

  return (
    <section className="push-invitation" aria-labelledby="push-invitation-title">
      <div>
        <h2 id="push-invitation-title">{t.push.inviteTitle}</h2>
        <p>{t.push.inviteBody}</p>
      </div>
      <div className="push-invitation-actions">
        <Button onPress={() => void enable()} isDisabled={pending}>
          {pending ? t.push.enabling : t.push.enable}
        </Button>
        <Button
          variant="ghost"
          onPress={() => {
            try {
              localStorage.setItem(dismissedKey(userId), new Date().toISOString());
            } catch {
              // Private mode without storage: hidden for this visit only.
            }
            setLater(true);
          }}
        >
          {t.push.inviteLater}
        </Button>
      </div>
    </section>
  );
}

/**
 * When a new version of the service worker is waiting, offer to switch to it; the user
 * decides when, so that nothing typed is lost by a surprise reload.
 */
import { useRegisterSW } from 'virtual:pwa-register/react';
import { t } from '../i18n/pt-BR';
import { Button } from '../ui/Button';

export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisterError(error: unknown) {
      console.warn('service worker: registration failed', error);
    },
  });
  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="alertdialog" aria-labelledby="update-prompt-text">
      <p id="update-prompt-text">{t.update.available}</p>
      <div className="update-prompt-actions">
        <Button onPress={() => void updateServiceWorker(true)}>{t.update.reload}</Button>
        <Button variant="ghost" onPress={() => setNeedRefresh(false)}>
          {t.update.later}
        </Button>
      </div>
    </div>
  );
}

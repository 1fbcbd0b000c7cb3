/**
 * When a new version of the service worker is waiting, offer to switch to it; the user
 * decides when, so that nothing typed is lost by a surprise reload. Control-room screens stay
 * open for days, so the worker is also checked for updates every hour while online.
 */
import { useRegisterSW } from 'virtual:pwa-register/react';
import { t } from '../i18n/pt-BR';
import { Button } from '../ui/Button';

const UPDATE_CHECK_MS = 60 * 60 * 1000;

function checkForUpdates(registration: ServiceWorkerRegistration | undefined) {
  if (!registration) return;
  setInterval(() => {
    if (navigator.onLine) void registration.update().catch(() => undefined);
  }, UPDATE_CHECK_MS);
}

/** Reloads once the new worker controls the page (whether it was found by the page or not). */
function reloadWhenControlled() {
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  });
}

export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW: (_url, registration) => checkForUpdates(registration),
    onRegisterError(error: unknown) {
      console.warn('service worker: registration failed', error);
    },
  });
  if (!needRefresh) return null;
  return (
    <div className="update-prompt" role="alertdialog" aria-labelledby="update-prompt-text">
      <p id="update-prompt-text">{t.update.available}</p>
      <div className="update-prompt-actions">
        <Button
          onPress={() => {
            reloadWhenControlled();
            void updateServiceWorker(true);
          }}
        >
          {t.update.reload}
        </Button>
        <Button variant="ghost" onPress={() => setNeedRefresh(false)}>
          {t.update.later}
        </Button>
      </div>
    </div>
  );
}

/**
 * When a new version of the service worker is waiting, offer to switch to it; the user
 * decides when, so that nothing typed is lost by a surprise reload. Control-room screens stay
 * open for days, so the worker is also checked for updates every hour while online.
 */
import { useRegisterSW } from 'virtual:pwa-register/react';
import { t } from '../i18n/pt-BR';
import { Button } from '../ui/Button';
import './UpdatePrompt.css';

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

/**
 * Asks the waiting worker to take over again once the active one has finished activating: a
 * worker told to skip waiting while the one before it is still 'activating' is left waiting by
 * Chromium (a new version found right after the first install; 2 in 10 of the update journey).
 */
function skipWaitingAfterActivation(registration: ServiceWorkerRegistration | undefined) {
  const active = registration?.active;
  if (!registration || !active || active.state !== 'activating') return;
  active.addEventListener('statechange', () => {
    if (active.state === 'activated') registration.waiting?.postMessage({ type: 'SKIP_WAITING' });
  });
}

let registration: ServiceWorkerRegistration | undefined;

export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW: (_url, found) => {
      registration = found;
      checkForUpdates(found);
    },
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
            skipWaitingAfterActivation(registration);
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

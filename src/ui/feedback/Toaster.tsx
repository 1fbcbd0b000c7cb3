/**
 * Renders the toast queue: a labelled region, each toast with its style and actions. On a
 * phone a toast's buttons go under its text, and only the newest toasts show (styles.css).
 */
import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';
import { useNavigate } from 'react-router';
import { t } from '../../i18n/pt-BR';
import { ALERTS_HISTORY_ROUTE, toastQueue } from './toasts';

/** Toasts a phone shows at once (styles.css hides the others below 768 px). */
const PHONE_VISIBLE_TOASTS = 2;

export function Toaster() {
  const navigate = useNavigate();
  return (
    <ToastRegion queue={toastQueue} aria-label={t.toast.region} className="toast-region">
      {({ toast }) => {
        const { kind, title, description, route } = toast.content;
        const closable = kind === 'warning' || kind === 'alert';
        // Newest first: the third and older wait, hidden on a phone, until one is closed.
        const waiting = toastQueue.visibleToasts.indexOf(toast) >= PHONE_VISIBLE_TOASTS;
        return (
          <Toast toast={toast} className={`toast toast-${kind}${waiting ? ' toast-waiting' : ''}`}>
            <ToastContent className="toast-content">
              <Text slot="title" className="toast-title">
                {title}
              </Text>
              {description && (
                <Text slot="description" className="toast-description">
                  {description}
                </Text>
              )}
            </ToastContent>
            {closable ? (
              <div className="toast-actions">
                {kind === 'alert' && (
                  <Button
                    className="btn btn-secondary toast-action"
                    onPress={() => {
                      toastQueue.close(toast.key);
                      navigate(route ?? ALERTS_HISTORY_ROUTE);
                    }}
                  >
                    {t.toast.seeAlerts}
                  </Button>
                )}
                <Button
                  slot="close"
                  aria-label={t.toast.close}
                  className="btn btn-ghost toast-action"
                >
                  {t.toast.close}
                </Button>
              </div>
            ) : (
              <Button slot="close" className="toast-dismiss" aria-label={t.toast.dismiss}>
                ×
              </Button>
            )}
          </Toast>
        );
      }}
    </ToastRegion>
  );
}

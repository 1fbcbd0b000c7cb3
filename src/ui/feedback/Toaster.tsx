/**
 * Renders the toast queue: a labelled region, each toast with its style and actions. Only the
 * newest alerts and warnings show (two on a phone, three on a wider screen, styles.css), so
 * that a burst of alerts does not cover the page; the topmost one shown says how many more
 * wait, with 'Fechar todas'. Toasts that close by themselves always show. Closing one brings
 * the next. A toast with the keyboard focus stays shown, however many come after it. On a
 * phone a toast's buttons go under its text.
 */

import { useCallback, useRef, useState } from 'react';
import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';
import { useNavigate } from 'react-router';
import { t } from '../../i18n/pt-BR';
import { ALERTS_HISTORY_ROUTE, type ToastKind, toastQueue, toast as toasts } from './toasts';

/** Alerts and warnings a phone shows at once (styles.css hides the others below 768 px). */
const PHONE_VISIBLE_TOASTS = 2;
const lasting = (kind: ToastKind) => kind === 'warning' || kind === 'alert';

/** Alerts and warnings a wider screen shows at once. */
export const VISIBLE_TOASTS = 3;

/** The line of the topmost toast shown: how many more wait, and 'Fechar todas'. */
function MoreToasts({ count, className }: { count: number; className: string }) {
  return (
    <div className={`toast-more ${className}`}>
      <span>{t.toast.more(count)}</span>
      <Button className="btn btn-ghost toast-action" onPress={() => toasts.closeLasting()}>
        {t.toast.closeAll}
      </Button>
    </div>
  );
}

/**
 * Keeps `--toast-room` on the page at the height the toasts take (0 without any): the page's
 * content is padded by it at its end (styles.css), so scrolling to the end brings its last
 * controls above the toasts instead of under them.
 */
function useToastRoom() {
  const observer = useRef<ResizeObserver | null>(null);
  return useCallback((region: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    const root = document.documentElement.style;
    if (!region) {
      root.removeProperty('--toast-room');
      return;
    }
    const measure = () => {
      const height = region.getBoundingClientRect().height;
      if (height > 0) root.setProperty('--toast-room', `${Math.ceil(height) + 16}px`);
      else root.removeProperty('--toast-room');
    };
    observer.current = new ResizeObserver(measure);
    observer.current.observe(region);
    measure();
  }, []);
}

export function Toaster() {
  const navigate = useNavigate();
  const regionRef = useToastRoom();
  // The toast someone is using (focus inside): never hidden under them by newer ones.
  const [focused, setFocused] = useState<string | null>(null);
  return (
    <ToastRegion
      ref={regionRef}
      queue={toastQueue}
      aria-label={t.toast.region}
      className="toast-region"
    >
      {({ toast }) => {
        const { kind, title, description, route } = toast.content;
        const closable = kind === 'warning' || kind === 'alert';
        // Newest first: the older alerts and warnings wait, hidden, until one is closed. What
        // answers the person's own action (saved, failed, loading) always shows: it goes soon.
        const queued = toastQueue.visibleToasts.filter((item) => lasting(item.content.kind));
        const index = closable ? queued.indexOf(toast) : -1;
        const hidden =
          toast.key === focused
            ? ''
            : index >= VISIBLE_TOASTS
              ? ' toast-waiting'
              : index >= PHONE_VISIBLE_TOASTS
                ? ' toast-waiting-phone'
                : '';
        return (
          <Toast toast={toast} className={`toast toast-${kind}${hidden}`}>
            {/* Lays nothing out (display: contents): it only hears focus come and go. */}
            {/* biome-ignore lint/a11y/noStaticElementInteractions: it listens for focus only; the buttons inside are the controls */}
            <div
              className="toast-body"
              onFocus={() => setFocused(toast.key)}
              onBlur={(event) => {
                if (!event.currentTarget.contains(event.relatedTarget as Node | null))
                  setFocused((key) => (key === toast.key ? null : key));
              }}
            >
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
              {index === PHONE_VISIBLE_TOASTS - 1 && queued.length > PHONE_VISIBLE_TOASTS && (
                <MoreToasts
                  count={queued.length - PHONE_VISIBLE_TOASTS}
                  className="toast-more-phone"
                />
              )}
              {index === VISIBLE_TOASTS - 1 && queued.length > VISIBLE_TOASTS && (
                <MoreToasts count={queued.length - VISIBLE_TOASTS} className="toast-more-wide" />
              )}
            </div>
          </Toast>
        );
      }}
    </ToastRegion>
  );
}

/**
 * Renders the toast queue: a labelled region, each toast with its style and actions.
 *
 * Alerts and warnings stay until closed, and in a control room they keep coming: a stack of
 * them would sit over the page (a form's fields, its 'Salvar'). So a new one shows in full for
 * a few seconds (PEEK_MS) — long enough to catch the eye and be read — and then, unless the
 * pointer is over the toasts or the focus is in them, the stack settles into one compact line
 * at the corner: "N alertas", 'Ver alertas' and 'Fechar todas'. Nothing is lost: the line's
 * count opens the stack again (and moves the focus to the newest toast), and each toast stays
 * until closed. Screen readers hear each new alert as it comes (its content is a live alert,
 * shown in full then); the line itself says nothing on its own.
 *
 * When open, only the newest alerts and warnings show (two on a phone, three on a wider
 * screen, Toaster.css); the topmost one shown says how many more wait, with 'Fechar todas'.
 * Toasts that close by themselves (success, error, loading) always show. Closing one brings
 * the next. A toast with the keyboard focus stays shown, however many come after it. On a
 * phone a toast's buttons go under its text.
 */

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastList as ToastList,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';
import { useNavigate } from 'react-router';
import { t } from '../../i18n/pt-BR';
import {
  ALERTS_HISTORY_ROUTE,
  type ToastContent as Content,
  type ToastKind,
  toastQueue,
  toast as toasts,
} from './toasts';
import '../Button.css';
import './Toaster.css';

/** Alerts and warnings a phone shows at once (Toaster.css hides the others below 768 px). */
const PHONE_VISIBLE_TOASTS = 2;
const lasting = (kind: ToastKind) => kind === 'warning' || kind === 'alert';

/** Alerts and warnings a wider screen shows at once. */
export const VISIBLE_TOASTS = 3;

/** How long a new alert or warning shows in full before the stack settles into its line. */
export const PEEK_MS = 8000;
/** How long the stack stays open after the pointer or the focus leaves it. */
export const LINGER_MS = 2500;

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
 * content is padded by it at its end (Toaster.css), so scrolling to the end brings its last
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

const subscribe = (callback: () => void) => toastQueue.subscribe(callback);
const snapshot = () => toastQueue.visibleToasts;

/**
 * Whether the alerts and warnings show in full: for PEEK_MS after a new one comes (or after
 * the line's count is pressed), and for as long as the pointer is over them or the focus is in
 * them (`engaged`, asked when the time is up; then asked again every LINGER_MS). Asked of the
 * page, not kept from events: a toast closed under the pointer or the focus sends no 'leave'.
 * The pointer counts once it moves over them (`moved`, cleared at each peek): a toast that
 * comes up under a pointer resting there (on 'Salvar', just clicked) still settles.
 */
function usePeek(lastingKeys: string[], engaged: () => boolean, moved: { current: boolean }) {
  const [open, setOpen] = useState(lastingKeys.length > 0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const seen = useRef(new Set<string>());
  const isEngaged = useRef(engaged);
  isEngaged.current = engaged;

  const settleIn = useCallback((ms: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(function check() {
      if (isEngaged.current()) timer.current = setTimeout(check, LINGER_MS);
      else {
        timer.current = undefined;
        setOpen(false);
      }
    }, ms);
  }, []);
  const peek = useCallback(() => {
    moved.current = false;
    setOpen(true);
    settleIn(PEEK_MS);
  }, [settleIn, moved]);

  // A key not seen before is a new alert or warning: it shows in full.
  const keys = lastingKeys.join(' ');
  useEffect(() => {
    const current = keys ? keys.split(' ') : [];
    const fresh = current.some((key) => !seen.current.has(key));
    seen.current = new Set(current);
    if (fresh) peek();
  }, [keys, peek]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return { open, peek };
}

/** The pointer over the toasts, or the focus in them. */
function engagedWith(region: HTMLElement | null, moved: boolean): boolean {
  if (!region) return false;
  if (region.contains(document.activeElement)) return true;
  if (!moved) return false;
  try {
    return region.matches(':hover');
  } catch {
    return false;
  }
}

/**
 * Where the settled line sits: at the corner, or just above a form's action bar while that bar
 * is stuck to the bottom of the screen (`--toast-settled-bottom`, Toaster.css). The stack in
 * full keeps Toaster.css's fixed lift; the line, a few pixels tall, goes as low as it can, off a
 * short form's buttons (which the page's end padding, --toast-room, keeps above it).
 */
function useSettledPlace(settled: boolean) {
  useEffect(() => {
    if (!settled) return;
    const root = document.documentElement.style;
    const place = () => {
      const bar = document.querySelector('.form-actions-sticky')?.getBoundingClientRect();
      const stuck = bar && bar.height > 0 && bar.bottom >= window.innerHeight - 1;
      if (stuck)
        root.setProperty(
          '--toast-settled-bottom',
          `${Math.ceil(window.innerHeight - bar.top) + 8}px`,
        );
      else root.removeProperty('--toast-settled-bottom');
    };
    place();
    const resized = new ResizeObserver(place);
    resized.observe(document.body);
    window.addEventListener('scroll', place, { capture: true, passive: true });
    window.addEventListener('resize', place);
    return () => {
      resized.disconnect();
      window.removeEventListener('scroll', place, { capture: true });
      window.removeEventListener('resize', place);
      root.removeProperty('--toast-settled-bottom');
    };
  }, [settled]);
}

/** A sticky toast's own action: pressed, it runs; the toast closes only when that worked. */
function StickyAction({
  toastKey,
  sticky,
}: {
  toastKey: string;
  sticky: NonNullable<Content['sticky']>;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      className="btn btn-primary toast-action"
      isDisabled={busy}
      onPress={() => {
        setBusy(true);
        void sticky
          .action()
          .then((done) => {
            if (done) toastQueue.close(toastKey);
          })
          .finally(() => setBusy(false));
      }}
    >
      {sticky.label}
    </Button>
  );
}

export function Toaster() {
  const navigate = useNavigate();
  const roomRef = useToastRoom();
  const region = useRef<HTMLDivElement | null>(null);
  const regionRef = useCallback(
    (element: HTMLDivElement | null) => {
      region.current = element;
      roomRef(element);
    },
    [roomRef],
  );
  // The toast someone is using (focus inside): never hidden under them by newer ones.
  const [focused, setFocused] = useState<string | null>(null);
  const visible = useSyncExternalStore(subscribe, snapshot, snapshot);
  // Newest first: the older alerts and warnings wait, hidden, until one is closed. What
  // answers the person's own action (saved, failed, loading) always shows: it goes soon.
  // Sticky alerts show apart, always in full (see the file's comment).
  const queued = visible.filter((item) => lasting(item.content.kind) && !item.content.sticky);
  const moved = useRef(false);
  const { open, peek } = usePeek(
    queued.map((item) => item.key),
    () => engagedWith(region.current, moved.current),
    moved,
  );
  const settled = queued.length > 0 && !open;
  useSettledPlace(settled);

  // The line's count opens the stack and moves the focus to its newest toast (the line goes).
  const [focusNewest, setFocusNewest] = useState(false);
  useEffect(() => {
    if (!focusNewest || !open) return;
    setFocusNewest(false);
    region.current?.querySelector<HTMLElement>('.toast-lasting')?.focus();
  }, [focusNewest, open]);

  const alerts = queued.filter((item) => item.content.kind === 'alert');
  const count = t.toast.waiting(
    queued.length,
    alerts.length === queued.length ? 'alert' : alerts.length === 0 ? 'warning' : 'mixed',
  );
  const seeAlerts = () => {
    // One alert leads where its own toast would; several, to the history. Either way the
    // alert toasts go (the history lists them; the bell keeps the count); warnings stay.
    const only = alerts.length === 1 ? alerts[0]?.content.route : undefined;
    for (const item of alerts) toastQueue.close(item.key);
    navigate(only ?? ALERTS_HISTORY_ROUTE);
  };

  return (
    <ToastRegion
      ref={regionRef}
      queue={toastQueue}
      aria-label={t.toast.region}
      className={`toast-region${settled ? ' toast-region-settled' : ''}`}
    >
      {/* Lays nothing out (display: contents): it only hears the pointer move over the toasts. */}
      <div
        className="toast-stack"
        onPointerMove={(event) => {
          if (event.pointerType === 'mouse') moved.current = true;
        }}
      >
        {settled && (
          <div className={`toast-line toast-line-${alerts.length > 0 ? 'alert' : 'warning'}`}>
            <Button
              className="btn btn-ghost toast-action toast-line-count"
              aria-label={t.toast.show(count)}
              aria-expanded={false}
              onPress={() => {
                peek();
                setFocusNewest(true);
              }}
            >
              {count}
              <span className="toast-line-chevron" aria-hidden="true">
                ▴
              </span>
            </Button>
            <span className="toast-line-actions">
              {alerts.length > 0 && (
                <Button className="btn btn-secondary toast-action" onPress={seeAlerts}>
                  {t.toast.seeAlerts}
                </Button>
              )}
              <Button className="btn btn-ghost toast-action" onPress={() => toasts.closeLasting()}>
                {t.toast.closeAll}
              </Button>
            </span>
          </div>
        )}
        <ToastList<Content> className="toast-list">
          {({ toast }) => {
            const { kind, title, description, route, sticky } = toast.content;
            if (sticky)
              return (
                <Toast toast={toast} className="toast toast-alert toast-sticky">
                  <div className="toast-body">
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
                    <div className="toast-actions">
                      <StickyAction toastKey={toast.key} sticky={sticky} />
                      <Button
                        className="btn btn-ghost toast-action"
                        onPress={() => navigate(route ?? ALERTS_HISTORY_ROUTE)}
                      >
                        {t.toast.seeAlerts}
                      </Button>
                    </div>
                  </div>
                </Toast>
              );
            const closable = lasting(kind);
            const index = closable ? queued.findIndex((item) => item.key === toast.key) : -1;
            const hidden = !closable
              ? ''
              : settled && toast.key !== focused
                ? ' toast-settled'
                : toast.key === focused
                  ? ''
                  : index >= VISIBLE_TOASTS
                    ? ' toast-waiting'
                    : index >= PHONE_VISIBLE_TOASTS
                      ? ' toast-waiting-phone'
                      : '';
            return (
              <Toast
                toast={toast}
                className={`toast toast-${kind}${closable ? ' toast-lasting' : ''}${hidden}`}
              >
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
                    <MoreToasts
                      count={queued.length - VISIBLE_TOASTS}
                      className="toast-more-wide"
                    />
                  )}
                </div>
              </Toast>
            );
          }}
        </ToastList>
      </div>
    </ToastRegion>
  );
}

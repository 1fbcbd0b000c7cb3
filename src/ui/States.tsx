import type { ReactNode } from 'react';
import { Link, ProgressBar } from 'react-aria-components';
import { t } from '../i18n/pt-BR';
import './page.css';
import './States.css';

const PIN =
  'M24 4a14 14 0 0 0-14 14c0 10.5 14 26 14 26s14-15.5 14-26A14 14 0 0 0 24 4Zm0 19a5 5 0 1 1 0-10 5 5 0 0 1 0 10Z';
const LOCK =
  'M15 21v-6a9 9 0 0 1 18 0v6h2a3 3 0 0 1 3 3v16a3 3 0 0 1-3 3H13a3 3 0 0 1-3-3V24a3 3 0 0 1 3-3Zm4 0h10v-6a5 5 0 0 0-10 0Zm5 8a3 3 0 0 0-1.5 5.6V38h3v-3.4A3 3 0 0 0 24 29Z';

/** Shown where a list or area has nothing yet (or may not be opened: `locked`). */
export function EmptyState({
  title,
  children,
  locked = false,
}: {
  title: string;
  children?: ReactNode;
  locked?: boolean;
}) {
  return (
    <section className="empty-state" aria-label={title}>
      <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true">
        <path d={locked ? LOCK : PIN} fill="currentColor" fillRule="evenodd" />
      </svg>
      <p className="empty-state-title">{title}</p>
      {children}
    </section>
  );
}

/**
 * A record opened without signal that this device does not keep: its page says the data come
 * with the connection (the read waits for it), with the way back to its list.
 */
export function OfflineRecord({ title, back }: { title: string; back: string }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{title}</h1>
      </div>
      <EmptyState title={t.network.offline}>
        <p>{t.list.itemOffline}</p>
        <Link href={back}>{t.list.back}</Link>
      </EmptyState>
    </section>
  );
}

/** Indeterminate progress with a visible, announced label. */
export function Loading({ label }: { label: string }) {
  return (
    <ProgressBar isIndeterminate aria-label={label} className="loading">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </ProgressBar>
  );
}

/** An error or notice inside a form, announced when it appears. */
export function FormMessage({
  kind,
  children,
}: {
  kind: 'error' | 'success';
  children: ReactNode;
}) {
  return (
    <div
      className={`form-message form-message-${kind}`}
      role={kind === 'error' ? 'alert' : 'status'}
    >
      {children}
    </div>
  );
}

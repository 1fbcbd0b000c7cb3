import type { ReactNode } from 'react';
import { ProgressBar } from 'react-aria-components';

/** Shown where a list or area has nothing yet. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="empty-state" aria-label={title}>
      <svg viewBox="0 0 48 48" width="48" height="48" aria-hidden="true">
        <path
          d="M24 4a14 14 0 0 0-14 14c0 10.5 14 26 14 26s14-15.5 14-26A14 14 0 0 0 24 4Zm0 19a5 5 0 1 1 0-10 5 5 0 0 1 0 10Z"
          fill="currentColor"
        />
      </svg>
      <p className="empty-state-title">{title}</p>
      {children}
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

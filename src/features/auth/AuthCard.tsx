import type { ReactNode } from 'react';
import { t } from '../../i18n/pt-BR';
import '../../ui/text.css';
import './AuthCard.css';

/** The centred card of the public pages (login, passwords). */
export function AuthCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand">
          <img src="/icons/rastro.svg" alt="" width="40" height="40" />
          <div>
            <p className="auth-brand-name">{t.appName}</p>
            <p className="muted">{t.tagline}</p>
          </div>
        </div>
        <h1>{title}</h1>
        {intro && <p className="muted">{intro}</p>}
        {children}
      </div>
    </main>
  );
}

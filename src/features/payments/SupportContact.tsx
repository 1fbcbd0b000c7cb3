/**
 * The provider's support contact (SPEC §1: finance e-mail, phone, WhatsApp link), from the
 * server's configuration; nothing at all when none is configured.
 */
import { useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { supportContact } from '../../api/payments';
import { isUnavailable, LOOKUP_QUERY } from '../../api/query';
import type { SupportContact as Contact } from '../../contract';
import { t } from '../../i18n/pt-BR';
import '../../ui/page.css';
import './SupportContact.css';

/** A lookup: kept by the service worker, so that the contact is there without signal. */
export function useSupportContact() {
  return useQuery({
    queryKey: keys.support,
    queryFn: supportContact,
    staleTime: 10 * 60_000,
    ...LOOKUP_QUERY,
  });
}

export function hasContact(contact: Contact | undefined): contact is Contact {
  return Boolean(contact && (contact.email || contact.phone || contact.whatsapp));
}

/**
 * The contact as a box: beside the invoices (`compact`, titled 'Suporte'), or as the 'Suporte'
 * page's content (`page`: the page's own heading names it, so the box has none of its own).
 */
export function SupportContact({
  compact = false,
  page = false,
}: {
  compact?: boolean;
  page?: boolean;
}) {
  const { data } = useSupportContact();
  if (!hasContact(data)) return null;
  return (
    <aside
      className={`support-contact${compact ? ' support-contact-compact' : ''}`}
      aria-label={t.support.title}
    >
      {!page && <h2>{t.support.title}</h2>}
      {!compact && <p>{t.support.intro}</p>}
      <dl className="support-list">
        {data.email && (
          <>
            <dt>{t.support.email}</dt>
            <dd>
              <a href={`mailto:${data.email}`}>{data.email}</a>
            </dd>
          </>
        )}
        {data.phone && (
          <>
            <dt>{t.support.phone}</dt>
            <dd>
              <a href={`tel:${data.phone.replace(/[^\d+]/g, '')}`}>{data.phone}</a>
            </dd>
          </>
        )}
        {data.whatsapp && (
          <>
            <dt>{t.support.whatsapp}</dt>
            <dd>
              <a href={data.whatsapp} target="_blank" rel="noreferrer">
                {t.support.openWhatsapp}
              </a>
            </dd>
          </>
        )}
      </dl>
    </aside>
  );
}

/** The 'Suporte' page of the menu. */
export function SupportPage() {
  const query = useSupportContact();
  const { data, isPending } = query;
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.support.title}</h1>
      </div>
      {hasContact(data) ? (
        <SupportContact page />
      ) : isUnavailable(query) ? (
        <p>{t.support.offline}</p>
      ) : (
        !isPending && <p>{t.support.none}</p>
      )}
    </section>
  );
}

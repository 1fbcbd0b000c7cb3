/**
 * A charge's invoice (/payments/{id}): what it is, its status, and what paying it takes
 * while it is open: the Pix QR code with 'Copiar código Pix', the boleto's digitable line with
 * 'Copiar linha digitável' and its PDF, or the card payment page. The status is read from
 * Asaas when the page opens.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-aria-components';
import { useParams } from 'react-router';
import { keys } from '../../api/keys';
import { getInvoice } from '../../api/payments';
import { isUnavailable } from '../../api/query';
import { type Invoice, PAYMENT_METHOD_LABELS } from '../../contract';
import { useErrorToast } from '../../hooks/feedback';
import { paymentsText } from '../../i18n/payments';
import { t } from '../../i18n/pt-BR';
import { formatCurrency, formatDay, formatDigitableLine } from '../../lib/format';
import { Button } from '../../ui/Button';
import { copyText } from '../../ui/feedback/copy';
import { EmptyState, Loading } from '../../ui/States';
import { ChargeState } from './ChargeStatus';
import { NotConfigured, usePaymentSettings } from './PaymentsPage';
import { SupportContact } from './SupportContact';
import '../../ui/Button.css';
import '../../ui/page.css';
import '../../ui/text.css';
import './InvoicePage.css';

const copy = (text: string) => copyText(text, paymentsText.copied, paymentsText.copyFailed);

function PayWith({ invoice }: { invoice: Invoice }) {
  if (invoice.pix)
    return (
      <section className="pay-box" aria-labelledby="pay-pix">
        <h2 id="pay-pix">{PAYMENT_METHOD_LABELS.pix}</h2>
        <img
          className="pix-qr"
          src={invoice.pix.qrCodeImage}
          alt={paymentsText.pixQr}
          width={220}
          height={220}
        />
        <p className="muted">{paymentsText.pixHelp}</p>
        <p className="pay-label" id="pix-code-label">
          {paymentsText.pixCode}
        </p>
        <code className="pay-code" data-testid="pix-code">
          {invoice.pix.code}
        </code>
        <Button onPress={() => void copy(invoice.pix?.code ?? '')}>{paymentsText.copyPix}</Button>
      </section>
    );
  if (invoice.boleto)
    return (
      <section className="pay-box" aria-labelledby="pay-boleto">
        <h2 id="pay-boleto">{PAYMENT_METHOD_LABELS.boleto}</h2>
        <p className="pay-label" id="line-label">
          {paymentsText.digitableLine}
        </p>
        <code className="pay-code">{formatDigitableLine(invoice.boleto.digitableLine)}</code>
        <div className="pay-actions">
          <Button onPress={() => void copy(invoice.boleto?.digitableLine ?? '')}>
            {paymentsText.copyLine}
          </Button>
          {invoice.boleto.pdfUrl && (
            <a
              className="btn btn-secondary"
              href={invoice.boleto.pdfUrl}
              target="_blank"
              rel="noreferrer"
            >
              {paymentsText.boletoPdf}
            </a>
          )}
        </div>
      </section>
    );
  if (invoice.cardPaymentUrl)
    return (
      <section className="pay-box" aria-labelledby="pay-card">
        <h2 id="pay-card">{PAYMENT_METHOD_LABELS.creditCard}</h2>
        <a
          className="btn btn-primary"
          href={invoice.cardPaymentUrl}
          target="_blank"
          rel="noreferrer"
        >
          {paymentsText.payByCard}
        </a>
      </section>
    );
  return (
    <section className="pay-box" aria-label={paymentsText.settled}>
      <p className="muted">
        {invoice.status === 'inactive' ? paymentsText.inactive : paymentsText.settled}
      </p>
      {invoice.invoiceUrl && (
        <a href={invoice.invoiceUrl} target="_blank" rel="noreferrer">
          {paymentsText.providerPage}
        </a>
      )}
    </section>
  );
}

export function InvoicePage() {
  const { id = '' } = useParams();
  const settings = usePaymentSettings();
  const query = useQuery({
    queryKey: keys.invoice(id),
    queryFn: () => getInvoice(id),
    enabled: settings.data?.configured === true,
    staleTime: 0,
  });
  useErrorToast(query.error, paymentsText.invoiceError);
  const invoice = query.data;
  return (
    <section className="page invoice-page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">
          {invoice ? paymentsText.invoice(invoice.document) : paymentsText.title}
        </h1>
        <Link href="/payments" className="btn btn-ghost">
          {paymentsText.back}
        </Link>
      </div>
      {settings.data && !settings.data.configured ? (
        <NotConfigured />
      ) : isUnavailable(settings) || isUnavailable(query) ? (
        <EmptyState title={t.network.offline}>
          <p>{t.list.itemOffline}</p>
        </EmptyState>
      ) : query.isPending ? (
        <Loading label={t.screens.invoicePage.carregando} />
      ) : !invoice ? (
        <EmptyState title={paymentsText.invoiceError} />
      ) : (
        <div className="invoice">
          <dl className="invoice-facts">
            <dt>{paymentsText.status}</dt>
            <dd>
              <ChargeState charge={invoice} />
            </dd>
            <dt>{paymentsText.value}</dt>
            <dd className="invoice-value">{formatCurrency(invoice.value)}</dd>
            <dt>{paymentsText.dueDate}</dt>
            <dd>{formatDay(invoice.dueDate)}</dd>
            <dt>{paymentsText.description}</dt>
            <dd>{invoice.description ?? '—'}</dd>
            <dt>{paymentsText.method}</dt>
            <dd>{PAYMENT_METHOD_LABELS[invoice.method]}</dd>
            {invoice.paidAt && (
              <>
                <dt>{paymentsText.paidAt}</dt>
                <dd>{formatDay(invoice.paidAt)}</dd>
              </>
            )}
          </dl>
          <PayWith invoice={invoice} />
        </div>
      )}
      <SupportContact compact />
    </section>
  );
}

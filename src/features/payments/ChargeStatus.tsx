/** A charge's status as SPEC §3 labels and styles it ('Pago' success, 'Pendente' warning, 'Inativo' neutral). */
import {
  type Charge,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUS_STYLES,
  type PaymentStatus,
} from '../../contract';
import { paymentsText } from '../../i18n/payments';
import { reportDay } from '../../lib/report-period';
import '../../ui/badge.css';

export function ChargeStatusChip({ status }: { status: PaymentStatus }) {
  return (
    <span className={`badge badge-${PAYMENT_STATUS_STYLES[status]}`} data-status={status}>
      {PAYMENT_STATUS_LABELS[status]}
    </span>
  );
}

/** Still owed and past its due date (São Paulo's today). */
export function isOverdue(charge: Pick<Charge, 'status' | 'dueDate'>, now = new Date()): boolean {
  const today = reportDay(now);
  return (
    (charge.status === 'waitingPayment' || charge.status === 'active') && charge.dueDate < today
  );
}

export function ChargeState({ charge }: { charge: Charge }) {
  return (
    <span className="badges">
      <ChargeStatusChip status={charge.status} />
      {isOverdue(charge) && <span className="badge badge-danger">{paymentsText.overdue}</span>}
    </span>
  );
}

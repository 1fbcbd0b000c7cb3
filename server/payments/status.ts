/**
 * Asaas charge statuses and billing types in SPEC §3 terms. Asaas has many statuses; the
 * product shows five (paid, waitingPayment, active, inactive, closed):
 *
 * - paid: the money arrived through Asaas (RECEIVED, CONFIRMED — a card payment confirmed).
 * - closed: settled outside the gateway (RECEIVED_IN_CASH, DUNNING_RECEIVED).
 * - waitingPayment: issued and not yet due (PENDING, AWAITING_RISK_ANALYSIS).
 * - active: still owed past its due date or in dispute (OVERDUE, DUNNING_REQUESTED,
 *   CHARGEBACK_REQUESTED, CHARGEBACK_DISPUTE, AWAITING_CHARGEBACK_REVERSAL).
 * - inactive: nothing is owed any more (REFUNDED, REFUND_REQUESTED, REFUND_IN_PROGRESS, a
 *   removed charge) and anything unknown, so that a new Asaas status never reads 'Pago'.
 */
import type { PaymentMethod, PaymentStatus } from '../../src/contract';

const STATUS: Record<string, PaymentStatus> = {
  RECEIVED: 'paid',
  CONFIRMED: 'paid',
  RECEIVED_IN_CASH: 'closed',
  DUNNING_RECEIVED: 'closed',
  PENDING: 'waitingPayment',
  AWAITING_RISK_ANALYSIS: 'waitingPayment',
  OVERDUE: 'active',
  DUNNING_REQUESTED: 'active',
  CHARGEBACK_REQUESTED: 'active',
  CHARGEBACK_DISPUTE: 'active',
  AWAITING_CHARGEBACK_REVERSAL: 'active',
  REFUNDED: 'inactive',
  REFUND_REQUESTED: 'inactive',
  REFUND_IN_PROGRESS: 'inactive',
};

export function paymentStatus(providerStatus: string, deleted = false): PaymentStatus {
  if (deleted) return 'inactive';
  return STATUS[providerStatus] ?? 'inactive';
}

/** Asaas billing types: BOLETO, CREDIT_CARD, PIX (UNDEFINED: the payer chooses; shown as boleto). */
export function paymentMethod(billingType: string): PaymentMethod {
  if (billingType === 'PIX') return 'pix';
  if (billingType === 'CREDIT_CARD' || billingType === 'DEBIT_CARD') return 'creditCard';
  return 'boleto';
}

export const ASAAS_STATUSES = Object.keys(STATUS);

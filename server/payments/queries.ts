/**
 * Charges kept from Asaas (see paymentCustomers/paymentCharges in schema.ts): a customer's
 * list is replaced by what Asaas answers on a read, and a webhook changes one charge at once.
 * Every read is filtered by the customer ids the caller may see.
 */
import { and, asc, count, desc, eq, inArray, lt, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { type ChargeQuery, PAYMENT_STATUS_LABELS } from '../../src/contract';
import type { Db } from '../platform/db/client';
import type { AsaasPayment } from './asaas';
import { paymentCharges, paymentCustomers } from './schema';
import { paymentStatus } from './status';

export type ChargeRow = typeof paymentCharges.$inferSelect;

export async function paymentCustomer(db: Db, clientId: string) {
  const [row] = await db
    .select()
    .from(paymentCustomers)
    .where(eq(paymentCustomers.clientId, clientId));
  return row;
}

function chargeValues(clientId: string, payment: AsaasPayment) {
  return {
    clientId,
    providerCustomerId: payment.customer,
    document: payment.invoiceNumber ?? payment.id,
    description: payment.description ?? null,
    value: payment.value,
    dueDate: payment.dueDate,
    billingType: payment.billingType,
    providerStatus: payment.status,
    status: paymentStatus(payment.status, payment.deleted),
    invoiceUrl: payment.invoiceUrl ?? null,
    bankSlipUrl: payment.bankSlipUrl ?? null,
    paidAt: payment.clientPaymentDate ?? payment.paymentDate ?? payment.confirmedDate ?? null,
    deleted: payment.deleted,
    createdAt: new Date(`${payment.dateCreated.slice(0, 10)}T12:00:00-03:00`),
    updatedAt: new Date(),
  };
}

async function upsert(db: Db, clientId: string, payments: AsaasPayment[]) {
  if (!payments.length) return;
  const rows = payments.map((p) => ({ id: p.id, ...chargeValues(clientId, p) }));
  await db
    .insert(paymentCharges)
    .values(rows)
    .onConflictDoUpdate({
      target: paymentCharges.id,
      set: {
        clientId: sql`excluded.client_id`,
        providerCustomerId: sql`excluded.provider_customer_id`,
        document: sql`excluded.document`,
        description: sql`excluded.description`,
        value: sql`excluded.value`,
        dueDate: sql`excluded.due_date`,
        billingType: sql`excluded.billing_type`,
        providerStatus: sql`excluded.provider_status`,
        status: sql`excluded.status`,
        invoiceUrl: sql`excluded.invoice_url`,
        bankSlipUrl: sql`excluded.bank_slip_url`,
        paidAt: sql`excluded.paid_at`,
        deleted: sql`excluded.deleted`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}

/** What Asaas listed for the customer now: kept; charges it no longer lists are marked removed. */
export async function replaceCharges(
  db: Db,
  clientId: string,
  providerCustomerId: string,
  payments: AsaasPayment[],
) {
  await db.transaction(async (tx) => {
    await upsert(tx, clientId, payments);
    const ids = payments.map((p) => p.id);
    await tx
      .update(paymentCharges)
      .set({ deleted: true, status: 'inactive', updatedAt: new Date() })
      .where(
        and(
          eq(paymentCharges.clientId, clientId),
          ids.length ? notInArray(paymentCharges.id, ids) : undefined,
        ),
      );
    await tx
      .insert(paymentCustomers)
      .values({ clientId, providerCustomerId, syncedAt: new Date() })
      .onConflictDoUpdate({
        target: paymentCustomers.clientId,
        set: { providerCustomerId, syncedAt: new Date() },
      });
  });
}

/** One charge as Asaas told now (the invoice page reads it live). */
export async function saveCharge(db: Db, clientId: string, payment: AsaasPayment) {
  await upsert(db, clientId, [payment]);
}

/**
 * A webhook's charge: kept when its Asaas customer is one of ours (known from an earlier
 * read); answers the customer id it was filed under, or null when the customer is unknown.
 */
export async function applyWebhookCharge(db: Db, payment: AsaasPayment): Promise<string | null> {
  const [owner] = await db
    .select({ clientId: paymentCustomers.clientId })
    .from(paymentCustomers)
    .where(eq(paymentCustomers.providerCustomerId, payment.customer));
  if (!owner) return null;
  await upsert(db, owner.clientId, [payment]);
  return owner.clientId;
}

const SORTS: Record<ChargeQuery['sort'], SQL> = {
  // Asaas numbers are digits: shorter first, then by text, sorts them as numbers.
  document: sql`length(${paymentCharges.document}), ${paymentCharges.document}`,
  // By the label people see (Inativo, Pago, Pendente): 'paid' and 'closed' are both 'Pago'.
  status: sql`case ${paymentCharges.status} ${sql.join(
    Object.entries(PAYMENT_STATUS_LABELS).map(
      ([status, label]) => sql`when ${status} then ${label}`,
    ),
    sql` `,
  )} end`,
  createdAt: sql`${paymentCharges.createdAt}`,
};

export async function listCharges(db: Db, clientId: string, q: ChargeQuery) {
  const where = and(
    eq(paymentCharges.clientId, clientId),
    eq(paymentCharges.deleted, false),
    q.status ? eq(paymentCharges.status, q.status) : undefined,
  );
  const direction = q.order === 'asc' ? sql`asc` : sql`desc`;
  const sort = SORTS[q.sort];
  const order =
    q.sort === 'document'
      ? [
          sql`length(${paymentCharges.document}) ${direction}`,
          sql`${paymentCharges.document} ${direction}`,
        ]
      : [sql`${sort} ${direction}`];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(paymentCharges)
      .where(where)
      .orderBy(
        ...order,
        q.order === 'asc' ? asc(paymentCharges.dueDate) : desc(paymentCharges.dueDate),
        asc(paymentCharges.id),
      )
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ value: count() }).from(paymentCharges).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

export async function chargeById(db: Db, id: string, clientIds: string[]) {
  if (!clientIds.length) return undefined;
  const [row] = await db
    .select()
    .from(paymentCharges)
    .where(
      and(
        eq(paymentCharges.id, id),
        inArray(paymentCharges.clientId, clientIds),
        eq(paymentCharges.deleted, false),
      ),
    );
  return row;
}

/** Whether a customer's charges must be read from Asaas again (never read, or older than maxAge). */
export async function needsSync(db: Db, clientId: string, maxAgeMs: number): Promise<boolean> {
  const [row] = await db
    .select({ clientId: paymentCustomers.clientId })
    .from(paymentCustomers)
    .where(
      and(
        eq(paymentCustomers.clientId, clientId),
        or(
          sql`${paymentCustomers.syncedAt} is null`,
          lt(paymentCustomers.syncedAt, new Date(Date.now() - maxAgeMs)),
        ),
      ),
    );
  if (row) return true;
  return !(await paymentCustomer(db, clientId));
}

/**
 * The payments room's tables. server/schema.ts re-exports them with every room's tables; the
 * customers they belong to are imported from the tenancy room's schema and referenced lazily.
 */
import {
  boolean,
  doublePrecision,
  index,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { clients } from '../tenancy/schema';

/**
 * Payments (server/payments/): each customer's Asaas customer id and when its charges were
 * last read from Asaas. Charges are kept here so that Asaas webhooks change their status at
 * once, without polling; a list older than PAYMENTS_SYNC_SECONDS is read from Asaas again.
 */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    clientId: uuid('client_id')
      .primaryKey()
      .references(() => clients.id),
    providerCustomerId: text('provider_customer_id').notNull(),
    syncedAt: timestamp('synced_at', { withTimezone: true }),
  },
  (t) => [index('payment_customers_provider_idx').on(t.providerCustomerId)],
);

/** Charges of customers as Asaas last told (a read or a webhook), keyed by Asaas' id. */
export const paymentCharges = pgTable(
  'payment_charges',
  {
    id: text('id').primaryKey(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id),
    providerCustomerId: text('provider_customer_id').notNull(),
    document: text('document').notNull(),
    description: text('description'),
    value: doublePrecision('value').notNull(),
    dueDate: text('due_date').notNull(),
    billingType: text('billing_type').notNull(),
    providerStatus: text('provider_status').notNull(),
    status: text('status').notNull(),
    invoiceUrl: text('invoice_url'),
    bankSlipUrl: text('bank_slip_url'),
    paidAt: text('paid_at'),
    deleted: boolean('deleted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_charges_client_idx').on(t.clientId, t.createdAt)],
);

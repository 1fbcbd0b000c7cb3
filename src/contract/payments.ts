/**
 * Invoices and payments (SPEC §3 Payment, §7 `registros/payments/individual-charges` and
 * `registros/invoices/{id}`, §8 the payment area's error catalogue) and the provider's support
 * contact (SPEC §1).
 *
 * A charge: `{ id, document, description, value, dueDate, method, status, providerStatus,
 * createdAt, paidAt, invoiceUrl }`; an invoice is a charge with what it takes to pay it: the
 * boleto's digitable line and PDF, the Pix copy-and-paste code and its QR code image, the
 * card payment link.
 */
import * as v from 'valibot';
import { IdSchema, OrderSchema, queryInt } from './common';
import * as o from './objects';

export const PAYMENT_METHODS = ['boleto', 'creditCard', 'pix'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_STATUSES = ['paid', 'waitingPayment', 'active', 'inactive', 'closed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** SPEC §3: the label and the style of each status. */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  paid: 'Pago',
  closed: 'Pago',
  waitingPayment: 'Pendente',
  active: 'Pendente',
  inactive: 'Inativo',
};
export type PaymentStyle = 'success' | 'warning' | 'neutral';
export const PAYMENT_STATUS_STYLES: Record<PaymentStatus, PaymentStyle> = {
  paid: 'success',
  closed: 'success',
  waitingPayment: 'warning',
  active: 'warning',
  inactive: 'neutral',
};

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  boleto: 'Boleto',
  creditCard: 'Cartão de crédito',
  pix: 'Pix',
};

/** SPEC §8, the payment area's messages, by code. */
export const PAYMENT_PROVIDER_NAME = 'Asaas';
export const PAYMENT_ERRORS = {
  INTERNAL_SERVER_ERROR: 'Erro interno no servidor',
  UNAUTHORIZED: 'Usuário não autorizado',
  FORBIDDEN: 'Acesso negado',
  NOT_FOUND: 'Recurso não encontrado',
  BAD_REQUEST: 'Requisição inválida',
  UNPROCESSABLE_ENTITY: 'Entidade não processável',
  NOT_FOUND_ON_PAYMENTS_SYSTEM: `Cliente não encontrado no ${PAYMENT_PROVIDER_NAME}`,
} as const;
export const PAYMENTS_NOT_CONFIGURED =
  'Pagamentos não configurados neste servidor: defina PAYMENTS_URL e PAYMENTS_TOKEN.';

export const ChargeSchema = o.object({
  id: v.string(),
  /** The charge's number at the provider (Asaas `invoiceNumber`). */
  document: v.string(),
  description: v.nullable(v.string()),
  value: v.number(),
  /** 'YYYY-MM-DD'. */
  dueDate: v.string(),
  method: v.picklist(PAYMENT_METHODS),
  status: v.picklist(PAYMENT_STATUSES),
  /** The provider's own status (PENDING, OVERDUE, RECEIVED…), for who wants the detail. */
  providerStatus: v.string(),
  createdAt: v.string(),
  paidAt: v.nullable(v.string()),
  /** The provider's page for this charge (pay by card, see the boleto). */
  invoiceUrl: v.nullable(v.string()),
  clientId: v.string(),
});
export type Charge = v.InferOutput<typeof ChargeSchema>;

export const InvoiceSchema = o.object({
  ...ChargeSchema.entries,
  boleto: v.nullable(o.object({ digitableLine: v.string(), pdfUrl: v.nullable(v.string()) })),
  pix: v.nullable(
    o.object({
      /** The copy-and-paste code (BR Code). */
      code: v.string(),
      /** The QR code as a data: URL (PNG). */
      qrCodeImage: v.string(),
      expiresAt: v.nullable(v.string()),
    }),
  ),
  /** A card charge's payment page. */
  cardPaymentUrl: v.nullable(v.string()),
});
export type Invoice = v.InferOutput<typeof InvoiceSchema>;

export const CHARGE_SORTS = ['document', 'status', 'createdAt'] as const;
export const ChargeQuerySchema = o.strictObject({
  clientId: v.optional(IdSchema),
  page: queryInt(1, 1, 100_000),
  limit: queryInt(10, 1, 100),
  sort: v.optional(v.picklist(CHARGE_SORTS, 'Ordenação inválida'), 'createdAt'),
  order: v.optional(OrderSchema, 'desc'),
  status: v.optional(v.picklist(PAYMENT_STATUSES, 'Situação inválida')),
});
export type ChargeQuery = v.InferOutput<typeof ChargeQuerySchema>;

export const ChargePageSchema = o.object({
  charges: v.array(ChargeSchema),
  page: v.number(),
  limit: v.number(),
  total: v.number(),
});
export type ChargePage = v.InferOutput<typeof ChargePageSchema>;

/** Asaas payment ids: 'pay_' and letters/digits. */
export const ChargeIdSchema = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Identificador de cobrança inválido'),
);

export const PaymentSettingsSchema = o.object({
  configured: v.boolean(),
  provider: v.string(),
});

/** The provider's support contact; each part only when configured. */
export const SupportContactSchema = o.object({
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  whatsapp: v.nullable(v.string()),
});
export type SupportContact = v.InferOutput<typeof SupportContactSchema>;

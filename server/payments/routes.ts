/**
 * Invoices and payments (SPEC §7): `GET registros/payments/individual-charges` (a customer's
 * charges: the caller's own customer, or `clientId` of one below it; sortable by document,
 * status, createdAt), `GET registros/invoices/{id}` (one charge with its Pix QR code and
 * code, boleto line and PDF, card link), `GET registros/payments/settings` (whether payments
 * are set up), `POST registros/payments/webhook` (Asaas events, authenticated by the
 * `asaas-access-token` header), and `GET registros/support` (the provider's contact).
 *
 * Reading charges needs read_resources and is closed to a Terceiro. A customer the caller
 * does not see, and a charge of one, answer 404 like one that does not exist.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import * as v from 'valibot';
import {
  type Charge,
  ChargeIdSchema,
  ChargePageSchema,
  ChargeQuerySchema,
  type Invoice,
  InvoiceSchema,
  PAYMENT_PROVIDER_NAME,
  PAYMENTS_NOT_CONFIGURED,
  PaymentSettingsSchema,
  SupportContactSchema,
} from '../../src/contract';
import * as o from '../../src/contract/objects';
import { type AuthEnv, requireAuth, requirePermission } from '../accounts/auth/middleware';
import type { Deps } from '../deps';
import type { Ctx } from '../owned/mold';
import { forbidden, HttpError } from '../platform/http/errors';
import { docs } from '../platform/http/openapi';
import { validate } from '../platform/http/validate';
import { getClient } from '../tenancy/queries';
import { customerScope, visibleClient } from '../tenancy/scope';
import { AsaasPaymentSchema, paymentError } from './asaas';
import {
  applyWebhookCharge,
  type ChargeRow,
  chargeById,
  listCharges,
  needsSync,
  paymentCustomer,
  replaceCharges,
  saveCharge,
} from './queries';
import { paymentMethod } from './status';

export function chargeOut(row: ChargeRow): Charge {
  return {
    id: row.id,
    document: row.document,
    description: row.description,
    value: row.value,
    dueDate: row.dueDate,
    method: paymentMethod(row.billingType),
    status: row.status as Charge['status'],
    providerStatus: row.providerStatus,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt,
    invoiceUrl: row.invoiceUrl,
    clientId: row.clientId,
  };
}

function notConfigured() {
  return new HttpError(503, 'PAYMENTS_NOT_CONFIGURED', PAYMENTS_NOT_CONFIGURED);
}

/** Payments are for people of the customer, not for a Terceiro. */
function noVisitor(c: Ctx) {
  if (c.var.user.role === 'VISITOR') throw forbidden();
}

/**
 * Reads the customer's charges from Asaas when they were never read or are older than
 * PAYMENTS_SYNC_SECONDS. When Asaas fails and an earlier read exists, that one is served
 * (and the failure logged); with nothing to serve, the SPEC §8 error goes to the caller.
 */
async function syncCustomer(deps: Deps, clientId: string) {
  const { db } = deps.database;
  if (!(await needsSync(db, clientId, deps.config.payments.syncMs))) return;
  const known = await paymentCustomer(db, clientId);
  try {
    const client = await getClient(db, clientId);
    if (!client) throw paymentError(404, 'NOT_FOUND');
    const customerId =
      known?.providerCustomerId ?? (await deps.payments.customerByDocument(client.document));
    await replaceCharges(db, clientId, customerId, await deps.payments.payments(customerId));
  } catch (err) {
    if (!known?.syncedAt) throw err;
    deps.log.warn('payments: serving the last read, Asaas failed', {
      clientId,
      err: err instanceof Error ? err.message : String(err),
    });
  }
}

const WebhookSchema = o.looseObject({
  id: v.optional(v.string()),
  event: v.pipe(v.string(), v.maxLength(100)),
  payment: v.optional(v.unknown()),
});

function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function paymentRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();

  // Asaas calls this, not a person: the shared token in its header is the credential.
  app.post(
    '/webhook',
    describeRoute({
      tags: ['Pagamentos'],
      summary: 'Eventos do Asaas (cabeçalho asaas-access-token)',
      responses: { 200: { description: 'Recebido' } },
    }),
    async (c) => {
      const expected = deps.config.payments.webhookToken;
      if (!expected)
        throw new HttpError(
          503,
          'PAYMENTS_NOT_CONFIGURED',
          'Webhook de pagamentos não configurado: defina PAYMENTS_WEBHOOK_TOKEN.',
        );
      if (!sameToken(c.req.header('asaas-access-token'), expected))
        throw new HttpError(401, 'UNAUTHORIZED', 'Usuário não autorizado');
      const body = v.safeParse(WebhookSchema, await c.req.json().catch(() => null));
      if (!body.success) throw paymentError(400, 'BAD_REQUEST');
      const { event, payment } = body.output;
      if (!event.startsWith('PAYMENT_') || payment === undefined)
        return c.json({ received: true, applied: false });
      const parsed = v.safeParse(AsaasPaymentSchema, payment);
      if (!parsed.success) throw paymentError(400, 'BAD_REQUEST');
      const charge =
        event === 'PAYMENT_DELETED' ? { ...parsed.output, deleted: true } : parsed.output;
      const clientId = await applyWebhookCharge(db, charge);
      if (clientId) deps.log.info('payments: webhook applied', { event, id: charge.id });
      return c.json({ received: true, applied: clientId !== null });
    },
  );

  app.use('/settings', requireAuth(deps));
  app.get(
    '/settings',
    describeRoute({
      tags: ['Pagamentos'],
      summary: 'Se os pagamentos estão configurados',
      responses: { 200: docs(PaymentSettingsSchema, 'Configuração') },
    }),
    (c) => c.json({ configured: deps.payments.configured, provider: PAYMENT_PROVIDER_NAME }),
  );

  app.use('/individual-charges', requireAuth(deps), requirePermission('read_resources'));
  app.get(
    '/individual-charges',
    describeRoute({
      tags: ['Pagamentos'],
      summary: 'Cobranças do cliente (ordenáveis por document, status, createdAt)',
      responses: { 200: docs(ChargePageSchema, 'Página') },
    }),
    validate('query', ChargeQuerySchema),
    async (c) => {
      noVisitor(c);
      const q = c.req.valid('query');
      const clientId = q.clientId ?? c.var.user.clientId;
      await visibleClient(c, deps, clientId);
      if (!deps.payments.configured) throw notConfigured();
      await syncCustomer(deps, clientId);
      const { rows, total } = await listCharges(db, clientId, q);
      return c.json({ charges: rows.map(chargeOut), page: q.page, limit: q.limit, total });
    },
  );

  return app;
}

export function invoiceRoutes(deps: Deps) {
  const { db } = deps.database;
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps), requirePermission('read_resources'));
  app.get(
    '/:id',
    describeRoute({
      tags: ['Pagamentos'],
      summary: 'Uma cobrança com o QR code e o código Pix, a linha digitável e o PDF do boleto',
      responses: { 200: docs(InvoiceSchema, 'Fatura') },
    }),
    validate('param', o.object({ id: ChargeIdSchema })),
    async (c) => {
      noVisitor(c);
      const id = c.req.valid('param').id;
      const known = await chargeById(db, id, await customerScope(c, deps));
      if (!known) throw paymentError(404, 'NOT_FOUND');
      if (!deps.payments.configured) throw notConfigured();
      // The status as Asaas has it now, then what paying it takes while it is open.
      const live = await deps.payments.payment(id);
      if (live.customer !== known.providerCustomerId) throw paymentError(404, 'NOT_FOUND');
      await saveCharge(db, known.clientId, live);
      const row = (await chargeById(db, id, [known.clientId])) ?? known;
      return c.json(await invoiceOut(deps, row));
    },
  );
  return app;
}

async function invoiceOut(deps: Deps, row: ChargeRow): Promise<Invoice> {
  const charge = chargeOut(row);
  const open = charge.status === 'waitingPayment' || charge.status === 'active';
  const invoice: Invoice = { ...charge, boleto: null, pix: null, cardPaymentUrl: null };
  if (!open) return invoice;
  if (charge.method === 'pix') {
    const pix = await deps.payments.pixQrCode(row.id);
    invoice.pix = {
      code: pix.payload,
      qrCodeImage: `data:image/png;base64,${pix.encodedImage}`,
      expiresAt: pix.expirationDate,
    };
  } else if (charge.method === 'boleto') {
    invoice.boleto = {
      digitableLine: await deps.payments.digitableLine(row.id),
      pdfUrl: row.bankSlipUrl,
    };
  } else invoice.cardPaymentUrl = row.invoiceUrl;
  return invoice;
}

export function supportRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use(requireAuth(deps));
  app.get(
    '/',
    describeRoute({
      tags: ['Pagamentos'],
      summary: 'Contato do suporte (e-mail financeiro, telefone, WhatsApp), se configurado',
      responses: { 200: docs(SupportContactSchema, 'Contato') },
    }),
    (c) => {
      const { email, phone, whatsapp } = deps.config.support;
      return c.json({
        email: email ?? null,
        phone: phone ?? null,
        whatsapp: whatsapp ? whatsappLink(whatsapp) : null,
      });
    },
  );
  return app;
}

/** A number becomes a wa.me link (digits only, Brazil's 55 added to a national number). */
export function whatsappLink(value: string): string {
  if (/^https:\/\//i.test(value)) return value;
  const digits = value.replace(/\D/g, '');
  return `https://wa.me/${digits.length <= 11 ? `55${digits}` : digits}`;
}

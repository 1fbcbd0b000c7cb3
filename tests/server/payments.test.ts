/**
 * Invoices and payments against a real local Asaas stand-in (an HTTP server in this test):
 * each Asaas status mapped to the SPEC §3 status, each provider error mapped to its SPEC §8
 * message, a webhook changing a status without polling (and one without the right token
 * refused), Norte never seeing Sul's charges, sorting, the invoice's Pix, boleto and card
 * parts, and payments not set up answering in pt-BR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AsaasPayment } from '../../server/payments/asaas';
import { DEMO_COMPANY_DOCUMENTS, demoCharges } from '../../server/payments/demo';
import { type AsaasStandIn, startAsaasStandIn } from '../../server/payments/stand-in';
import { ASAAS_STATUSES, paymentStatus } from '../../server/payments/status';
import {
  type ChargePage,
  type Customer,
  type Invoice,
  PAYMENT_ERRORS,
  PAYMENT_STATUS_LABELS,
} from '../../src/contract';
import type { WebhookResult } from './api-types';
import { as, backends, demoClients, type ErrorBody, jsonOf, useServer } from './harness';

const WEBHOOK_TOKEN = 'webhook-token-0123456789';
const customers = DEMO_COMPANY_DOCUMENTS.map((doc, i) => ({
  id: `cus_test${i}`,
  cpfCnpj: doc.document,
  name: doc.name,
}));
const norteCustomer = customers[1]?.id ?? '';

function charge(id: string, customer: string, status: string, extra: Partial<AsaasPayment> = {}) {
  return {
    id,
    customer,
    dateCreated: '2026-10-01',
    value: 100,
    description: `Cobrança ${id}`,
    billingType: 'BOLETO',
    status,
    dueDate: '2026-11-10',
    paymentDate: null,
    clientPaymentDate: null,
    confirmedDate: null,
    invoiceUrl: `https://asaas.test/i/${id}`,
    invoiceNumber: id.replace(/\D/g, ''),
    bankSlipUrl: `https://asaas.test/b/pdf/${id}`,
    deleted: false,
    ...extra,
  } satisfies AsaasPayment;
}

describe('Asaas statuses', () => {
  it('maps every Asaas status to a SPEC status, unknown ones never as paid', () => {
    expect(paymentStatus('RECEIVED')).toBe('paid');
    expect(paymentStatus('CONFIRMED')).toBe('paid');
    expect(paymentStatus('RECEIVED_IN_CASH')).toBe('closed');
    expect(paymentStatus('PENDING')).toBe('waitingPayment');
    expect(paymentStatus('OVERDUE')).toBe('active');
    expect(paymentStatus('REFUNDED')).toBe('inactive');
    expect(paymentStatus('PENDING', true)).toBe('inactive');
    expect(paymentStatus('SOMETHING_NEW')).toBe('inactive');
    expect(ASAAS_STATUSES.length).toBeGreaterThanOrEqual(14);
  });
});

describe.each(await backends())('invoices and payments on %s', (backend) => {
  // Each backend its own stand-in: what one suite's webhooks change, the other never sees.
  let standIn: AsaasStandIn;
  beforeAll(async () => {
    standIn = await startAsaasStandIn({ customers, payments: seedCharges() });
  });
  afterAll(() => standIn.close());
  const server = useServer(backend, () => ({
    PAYMENTS_URL: standIn.url,
    PAYMENTS_TOKEN: standIn.token,
    PAYMENTS_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
    PAYMENTS_SYNC_SECONDS: '3600',
  }));
  const prefix = `${backend}_`;
  const id = (n: string) => `pay_${prefix}${n}`;
  /** Norte: one charge in every Asaas status, a Pix and a card one; Sul: its own. */
  const seedCharges = (): AsaasPayment[] => {
    return [
      ...ASAAS_STATUSES.map((status, i) =>
        charge(id(`n${String(i).padStart(2, '0')}`), norteCustomer, status, {
          invoiceNumber: `${i + 1}`,
          dateCreated: `2026-10-${String(i + 1).padStart(2, '0')}`,
        }),
      ),
      charge(id('pix'), norteCustomer, 'PENDING', { billingType: 'PIX', invoiceNumber: '900' }),
      charge(id('card'), norteCustomer, 'OVERDUE', {
        billingType: 'CREDIT_CARD',
        invoiceNumber: '901',
      }),
      charge(id('s1'), customers[2]?.id ?? '', 'PENDING', { invoiceNumber: '77' }),
    ];
  };

  it('lists a customer’s charges with each status mapped and SPEC labels', async () => {
    const s = server();
    const norte = await as(s, 'gestor.norte@rastro.demo');
    const res = await norte.call<ChargePage>(
      'GET',
      '/registros/payments/individual-charges?limit=100',
    );
    expect(res.status).toBe(200);
    const byId = new Map(res.body.charges.map((c) => [c.id, c] as const));
    ASAAS_STATUSES.forEach((status, i) => {
      const row = byId.get(id(`n${String(i).padStart(2, '0')}`));
      expect(row?.providerStatus).toBe(status);
      expect(row?.status).toBe(paymentStatus(status));
    });
    expect(res.body.total).toBe(ASAAS_STATUSES.length + 2);
    expect(PAYMENT_STATUS_LABELS.paid).toBe('Pago');
    expect(PAYMENT_STATUS_LABELS.active).toBe('Pendente');
    expect(PAYMENT_STATUS_LABELS.inactive).toBe('Inativo');
  });

  it('sorts by document, status and createdAt, both ways', async () => {
    const norte = await as(server(), 'gestor.norte@rastro.demo');
    const list = async (q: string) =>
      (await norte.call<ChargePage>('GET', `/registros/payments/individual-charges?limit=100&${q}`))
        .body.charges;
    const docs = (await list('sort=document&order=asc')).map((c) => Number(c.document));
    expect(docs).toEqual([...docs].sort((a, b) => a - b));
    const desc = (await list('sort=document&order=desc')).map((c) => Number(c.document));
    expect(desc).toEqual([...docs].reverse());
    // By the label shown (paid and closed are both 'Pago'), not by the code.
    const labels = (await list('sort=status&order=asc')).map(
      (c) => PAYMENT_STATUS_LABELS[c.status],
    );
    expect(new Set(labels).size).toBeGreaterThan(2);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'pt-BR')));
    const down = (await list('sort=status&order=desc')).map((c) => PAYMENT_STATUS_LABELS[c.status]);
    expect(down).toEqual([...labels].reverse());
    const created = (await list('sort=createdAt&order=desc')).map((c) => c.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const bad = await norte.call<ErrorBody>(
      'GET',
      '/registros/payments/individual-charges?sort=value',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Ordenação inválida');
  });

  it('opens a Pix charge with its QR code and code, a boleto with its line, a card with its link', async () => {
    const norte = await as(server(), 'gestor.norte@rastro.demo');
    await norte.call('GET', '/registros/payments/individual-charges');
    const pix = await norte.call<Invoice>('GET', `/registros/invoices/${id('pix')}`);
    expect(pix.status).toBe(200);
    expect(pix.body.method).toBe('pix');
    expect(pix.body.pix?.code).toMatch(/^000201.*6304[0-9A-F]{4}$/);
    expect(pix.body.pix?.qrCodeImage).toMatch(/^data:image\/png;base64,iVBOR/);
    const boleto = await norte.call<Invoice>('GET', `/registros/invoices/${id('n04')}`);
    expect(boleto.body.status).toBe('waitingPayment');
    expect(boleto.body.boleto?.digitableLine).toMatch(/^\d{47}$/);
    expect(boleto.body.boleto?.pdfUrl).toBe(`https://asaas.test/b/pdf/${id('n04')}`);
    const card = await norte.call<Invoice>('GET', `/registros/invoices/${id('card')}`);
    expect(card.body.cardPaymentUrl).toBe(`https://asaas.test/i/${id('card')}`);
    const paid = await norte.call('GET', `/registros/invoices/${id('n00')}`);
    expect(paid.body).toMatchObject({ status: 'paid', pix: null, boleto: null });
  });

  it('Norte cannot see Sul’s charges, nor open one', async () => {
    const s = server();
    const ids = await demoClients(s);
    const sul = await as(s, 'gestor.sul@rastro.demo');
    expect((await sul.call('GET', '/registros/payments/individual-charges')).status).toBe(200);
    const norte = await as(s, 'gestor.norte@rastro.demo');
    const other = await norte.call(
      'GET',
      `/registros/payments/individual-charges?clientId=${ids.south}`,
    );
    expect(other.status).toBe(404);
    const invoice = await norte.call<ErrorBody>('GET', `/registros/invoices/${id('s1')}`);
    expect(invoice.status).toBe(404);
    expect(invoice.body.message).toBe(PAYMENT_ERRORS.NOT_FOUND);
    const visitor = await as(s, 'terceiro@rastro.demo');
    expect((await visitor.call('GET', '/registros/payments/individual-charges')).status).toBe(403);
    // The mother company reads a child's charges by choosing it.
    const admin = await as(s, 'admin@rastro.demo');
    const child = await admin.call<ChargePage>(
      'GET',
      `/registros/payments/individual-charges?clientId=${ids.south}`,
    );
    expect(child.body.charges.map((c) => c.id)).toEqual([id('s1')]);
  });

  it('a webhook with the right token changes a status at once; without it nothing changes', async () => {
    const s = server();
    const norte = await as(s, 'gestor.norte@rastro.demo');
    await norte.call('GET', '/registros/payments/individual-charges');
    const before = standIn.requests.length;
    const received = { ...charge(id('n04'), norteCustomer, 'RECEIVED'), invoiceNumber: '5' };
    const post = (headers: Record<string, string>) =>
      s.request('/registros/payments/webhook', {
        method: 'POST',
        headers,
        json: { id: 'evt_1', event: 'PAYMENT_RECEIVED', payment: received },
      });
    const refused = await post({ 'asaas-access-token': 'wrong-token-0123456789' });
    expect(refused.status).toBe(401);
    expect((await jsonOf<ErrorBody>(refused)).message).toBe(PAYMENT_ERRORS.UNAUTHORIZED);
    expect((await post({})).status).toBe(401);
    const statusOf = async () =>
      (
        await norte.call<ChargePage>('GET', '/registros/payments/individual-charges?limit=100')
      ).body.charges.find((c) => c.id === id('n04'))?.status;
    expect(await statusOf()).toBe('waitingPayment');
    const ok = await post({ 'asaas-access-token': WEBHOOK_TOKEN });
    expect(ok.status).toBe(200);
    expect(await jsonOf<WebhookResult>(ok)).toEqual({ received: true, applied: true });
    expect(await statusOf()).toBe('paid');
    // No list read went to Asaas: the webhook alone changed it.
    expect(standIn.requests.slice(before).filter((r) => r.startsWith('/v3/payments?'))).toEqual([]);
    // An unknown customer's event is acknowledged (Asaas must not pause) and filed nowhere.
    const stranger = await s.request('/registros/payments/webhook', {
      method: 'POST',
      headers: { 'asaas-access-token': WEBHOOK_TOKEN },
      json: { event: 'PAYMENT_RECEIVED', payment: charge('pay_x', 'cus_unknown', 'RECEIVED') },
    });
    expect(await jsonOf<WebhookResult>(stranger)).toEqual({ received: true, applied: false });
  });

  it('maps each provider error to its SPEC §8 message and changes nothing', async () => {
    const s = server();
    const norte = await as(s, 'gestor.norte@rastro.demo');
    await norte.call('GET', '/registros/payments/individual-charges');
    const cases: [number, number, keyof typeof PAYMENT_ERRORS][] = [
      [400, 400, 'BAD_REQUEST'],
      [401, 502, 'UNAUTHORIZED'],
      [403, 403, 'FORBIDDEN'],
      [404, 404, 'NOT_FOUND'],
      [422, 422, 'UNPROCESSABLE_ENTITY'],
      [500, 502, 'INTERNAL_SERVER_ERROR'],
      [503, 502, 'INTERNAL_SERVER_ERROR'],
    ];
    for (const [provider, status, code] of cases) {
      standIn.failNext(provider);
      const res = await norte.call<ErrorBody>('GET', `/registros/invoices/${id('pix')}`);
      expect([provider, res.status, res.body.code, res.body.message]).toEqual([
        provider,
        status,
        code,
        PAYMENT_ERRORS[code],
      ]);
    }
  });

  it('a customer missing at Asaas answers NOT_FOUND_ON_PAYMENTS_SYSTEM', async () => {
    const s = server();
    const admin = await as(s, 'admin@rastro.demo');
    const created = await admin.call<Customer>('POST', '/registros/client', {
      personKind: 'juridical',
      name: `Sem Asaas ${backend}`,
      clientCNPJ: '45.997.418/0001-53',
      motherCompanyId: (await demoClients(s)).north,
    });
    expect(created.status).toBe(201);
    const res = await admin.call(
      'GET',
      `/registros/payments/individual-charges?clientId=${created.body.id}`,
    );
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 'NOT_FOUND_ON_PAYMENTS_SYSTEM',
      message: 'Cliente não encontrado no Asaas',
    });
  });
});

describe('payments not set up', () => {
  const server = useServer('pglite', () => ({ SEED_DEMO: 'true' }));
  it('answers a clear pt-BR message and says so in the settings', async () => {
    const s = server();
    const user = await as(s, 'cliente@rastro.demo');
    const res = await user.call<ErrorBody>('GET', '/registros/payments/individual-charges');
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('PAYMENTS_NOT_CONFIGURED');
    expect(res.body.message).toContain('Pagamentos não configurados');
    expect((await user.call('GET', '/registros/payments/settings')).body).toEqual({
      configured: false,
      provider: 'Asaas',
    });
    const hook = await s.request('/registros/payments/webhook', {
      method: 'POST',
      headers: { 'asaas-access-token': 'anything-at-all-here' },
      json: { event: 'PAYMENT_RECEIVED' },
    });
    expect(hook.status).toBe(503);
  });
});

describe('demo charges', () => {
  it('cover every SPEC status and every method for each demo company', () => {
    const charges = demoCharges(customers);
    for (const customer of customers) {
      const mine = charges.filter((c) => c.customer === customer.id);
      expect(new Set(mine.map((c) => paymentStatus(c.status)))).toEqual(
        new Set(['paid', 'closed', 'waitingPayment', 'active', 'inactive']),
      );
      expect(new Set(mine.map((c) => c.billingType))).toEqual(
        new Set(['PIX', 'BOLETO', 'CREDIT_CARD']),
      );
    }
  });
});

describe('support contact', () => {
  const server = useServer('pglite', () => ({
    SUPPORT_EMAIL: 'financeiro@provedor.test',
    SUPPORT_PHONE: '(81) 3234-5678',
    SUPPORT_WHATSAPP: '81 99999-0000',
  }));
  it('is given to any signed-in user, the WhatsApp number as a link', async () => {
    const s = server();
    const visitor = await as(s, 'terceiro@rastro.demo');
    expect((await visitor.call('GET', '/registros/support')).body).toEqual({
      email: 'financeiro@provedor.test',
      phone: '(81) 3234-5678',
      whatsapp: 'https://wa.me/5581999990000',
    });
    expect((await s.request('/registros/support')).status).toBe(401);
  });
});

describe('support contact of the demo', () => {
  const server = useServer('pglite');
  it("is the demo provider's while the demo runs without one of its own", async () => {
    const user = await as(server(), 'cliente@rastro.demo');
    expect((await user.call('GET', '/registros/support')).body).toEqual({
      email: 'financeiro@rastro.demo',
      phone: '(81) 3234-5678',
      whatsapp: 'https://wa.me/5581998765432',
    });
  });
});

describe('support contact not configured', () => {
  const server = useServer('pglite', () => ({ SUPPORT_DEMO: 'false' }));
  it('answers nothing to show', async () => {
    const user = await as(server(), 'cliente@rastro.demo');
    expect((await user.call('GET', '/registros/support')).body).toEqual({
      email: null,
      phone: null,
      whatsapp: null,
    });
  });
});

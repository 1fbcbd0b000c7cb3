/**
 * A small Asaas stand-in (the part of API v3 Rastro uses): customers by CPF/CNPJ, a
 * customer's payments (paged), one payment, its Pix QR code (a real BR Code and PNG) and its
 * boleto line, behind the `access_token` header. The demo starts one when PAYMENTS_URL is
 * unset (never in production: only with the demo seed), so a newcomer sees charges in every
 * status; the tests drive it as a real HTTP server, making it fail on purpose.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';
import type { AsaasPayment } from './asaas';

export interface StandInCustomer {
  id: string;
  cpfCnpj: string;
  name: string;
}

export interface AsaasStandIn {
  /** The API's base URL (…/v3), as PAYMENTS_URL takes it. */
  url: string;
  token: string;
  customers: StandInCustomer[];
  payments: AsaasPayment[];
  /** Requests received (path and query), oldest first. */
  requests: string[];
  /** The next request is answered with this status (and an Asaas error body). */
  failNext(status: number): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
const asaasError = (code: string, description: string) => ({ errors: [{ code, description }] });

/** CRC16/CCITT-FALSE, as the Pix BR Code ends with. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
const field = (id: string, value: string) =>
  `${id}${String(value.length).padStart(2, '0')}${value}`;

/** A Pix copy-and-paste code (EMV BR Code) for this payment. */
export function pixPayload(payment: AsaasPayment): string {
  const account = field('00', 'br.gov.bcb.pix') + field('01', 'financeiro@rastro.demo');
  const body =
    field('00', '01') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    field('54', payment.value.toFixed(2)) +
    field('58', 'BR') +
    field('59', 'RASTRO DEMONSTRACAO') +
    field('60', 'RECIFE') +
    field('62', field('05', payment.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 25)));
  const withCrc = `${body}6304`;
  return withCrc + crc16(withCrc);
}

/**
 * A boleto's digitable line (47 digits, as Asaas answers it), made up from the payment: bank
 * 461, digits drawn from its id, and at the end the due-date factor and the value in cents.
 */
export function boletoLine(payment: AsaasPayment): string {
  const digits = BigInt(`0x${createHash('sha256').update(payment.id).digest('hex')}`)
    .toString()
    .slice(0, 30);
  const factor = String(
    Math.round((Date.parse(payment.dueDate) - Date.parse('2022-05-29')) / 86_400_000) + 1000,
  ).padStart(4, '0');
  const cents = String(Math.round(payment.value * 100)).padStart(10, '0');
  return `461${digits}${factor.slice(-4)}${cents}`.slice(0, 47).padEnd(47, '0');
}

export async function startAsaasStandIn(
  options: { token?: string; customers?: StandInCustomer[]; payments?: AsaasPayment[] } = {},
): Promise<AsaasStandIn> {
  const token = options.token ?? 'stand-in-token';
  let failing: number | undefined;
  const state = {
    customers: options.customers ?? [],
    payments: options.payments ?? [],
    requests: [] as string[],
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    state.requests.push(`${url.pathname}${url.search}`);
    if (failing !== undefined) {
      const status = failing;
      failing = undefined;
      return send(res, status, asaasError('failure', `Falha simulada ${status}`));
    }
    if (req.headers.access_token !== token)
      return send(res, 401, asaasError('invalid_access_token', 'Token inválido'));
    const parts = url.pathname
      .replace(/^\/v3\/?/, '')
      .split('/')
      .filter(Boolean);
    if (req.method !== 'GET') return send(res, 405, asaasError('method', 'Método não suportado'));
    if (parts[0] === 'customers' && parts.length === 1) {
      const doc = url.searchParams.get('cpfCnpj');
      const data = state.customers.filter((c) => !doc || c.cpfCnpj === doc);
      return send(res, 200, { object: 'list', hasMore: false, totalCount: data.length, data });
    }
    if (parts[0] !== 'payments') return send(res, 404, asaasError('not_found', 'Não encontrado'));
    if (parts.length === 1) {
      const customer = url.searchParams.get('customer');
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const all = state.payments.filter(
        (p) => !p.deleted && (!customer || p.customer === customer),
      );
      const data = all.slice(offset, offset + limit);
      return send(res, 200, {
        object: 'list',
        hasMore: offset + limit < all.length,
        totalCount: all.length,
        limit,
        offset,
        data,
      });
    }
    const payment = state.payments.find((p) => p.id === parts[1]);
    if (!payment) return send(res, 404, asaasError('not_found', 'Cobrança não encontrada'));
    if (parts.length === 2) return send(res, 200, { object: 'payment', ...payment });
    if (parts[2] === 'pixQrCode') {
      const payload = pixPayload(payment);
      const png = await QRCode.toBuffer(payload, { type: 'png', margin: 1, width: 240 });
      const expires = new Date(Date.parse(`${payment.dueDate}T23:59:59-03:00`));
      return send(res, 200, {
        encodedImage: png.toString('base64'),
        payload,
        expirationDate: expires.toISOString().replace('T', ' ').slice(0, 19),
      });
    }
    if (parts[2] === 'identificationField') {
      if (payment.billingType !== 'BOLETO')
        return send(res, 400, asaasError('invalid_billingType', 'Cobrança não é boleto'));
      const line = boletoLine(payment);
      return send(res, 200, {
        identificationField: line,
        nossoNumero: payment.id.replace(/\D/g, '').slice(0, 8),
        barCode: line.slice(0, 44),
      });
    }
    return send(res, 404, asaasError('not_found', 'Não encontrado'));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, asaasError('internal', 'Erro')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v3`,
    token,
    get customers() {
      return state.customers;
    },
    get payments() {
      return state.payments;
    },
    get requests() {
      return state.requests;
    },
    failNext(status) {
      failing = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

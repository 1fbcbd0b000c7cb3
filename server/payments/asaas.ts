/**
 * The Asaas adapter (API v3, docs.asaas.com): the one module that talks to the payment
 * provider. It finds a customer by CPF/CNPJ, lists a customer's charges and reads what it
 * takes to pay one (the Pix QR code and code, the boleto's digitable line). Every failure of
 * the provider leaves here as one of the SPEC §8 payment errors:
 *
 * | Asaas answered          | Rastro answers                                              |
 * | ----------------------- | ----------------------------------------------------------- |
 * | 400                     | 400 BAD_REQUEST 'Requisição inválida'                       |
 * | 401 (our token refused) | 502 UNAUTHORIZED 'Usuário não autorizado' (not a 401: the   |
 * |                         | PWA would take it for its own session expiring)            |
 * | 403                     | 403 FORBIDDEN 'Acesso negado'                               |
 * | 404                     | 404 NOT_FOUND 'Recurso não encontrado'                      |
 * | 422                     | 422 UNPROCESSABLE_ENTITY 'Entidade não processável'         |
 * | 5xx, no answer, garbage | 502 INTERNAL_SERVER_ERROR 'Erro interno no servidor'        |
 * | no customer for the CPF/CNPJ | 404 NOT_FOUND_ON_PAYMENTS_SYSTEM 'Cliente não encontrado no Asaas' |
 */
import * as v from 'valibot';
import { PAYMENT_ERRORS, PAYMENTS_NOT_CONFIGURED } from '../../src/contract';
import * as o from '../../src/contract/objects';
import { HttpError } from '../platform/http/errors';

export const AsaasPaymentSchema = o.object({
  id: v.string(),
  customer: v.string(),
  dateCreated: v.string(),
  value: v.number(),
  description: v.optional(v.nullable(v.string()), null),
  billingType: v.string(),
  status: v.string(),
  dueDate: v.string(),
  paymentDate: v.optional(v.nullable(v.string()), null),
  clientPaymentDate: v.optional(v.nullable(v.string()), null),
  confirmedDate: v.optional(v.nullable(v.string()), null),
  invoiceUrl: v.optional(v.nullable(v.string()), null),
  invoiceNumber: v.optional(v.nullable(v.string()), null),
  bankSlipUrl: v.optional(v.nullable(v.string()), null),
  deleted: v.optional(v.boolean(), false),
});
export type AsaasPayment = v.InferOutput<typeof AsaasPaymentSchema>;

const CustomerSchema = o.object({ id: v.string(), cpfCnpj: v.optional(v.nullable(v.string())) });
const listOf = <T extends v.GenericSchema>(item: T) =>
  o.object({ data: v.array(item), hasMore: v.optional(v.boolean(), false) });
const PixSchema = o.object({
  encodedImage: v.string(),
  payload: v.string(),
  expirationDate: v.optional(v.nullable(v.string()), null),
});
const LineSchema = o.object({ identificationField: v.string() });

export type PaymentErrorCode = keyof typeof PAYMENT_ERRORS;

export function paymentError(status: 400 | 403 | 404 | 422 | 502, code: PaymentErrorCode) {
  return new HttpError(status, code, PAYMENT_ERRORS[code]);
}

/** SPEC §8: what an answer of the provider becomes. */
export function providerError(status: number): HttpError {
  if (status === 400) return paymentError(400, 'BAD_REQUEST');
  if (status === 401) return paymentError(502, 'UNAUTHORIZED');
  if (status === 403) return paymentError(403, 'FORBIDDEN');
  if (status === 404) return paymentError(404, 'NOT_FOUND');
  if (status === 422) return paymentError(422, 'UNPROCESSABLE_ENTITY');
  return paymentError(502, 'INTERNAL_SERVER_ERROR');
}

export interface PaymentsProvider {
  readonly configured: boolean;
  /** The provider's customer id for this CPF/CNPJ (digits); NOT_FOUND_ON_PAYMENTS_SYSTEM if none. */
  customerByDocument(document: string): Promise<string>;
  /** Every charge of a customer (all pages). */
  payments(customerId: string): Promise<AsaasPayment[]>;
  payment(id: string): Promise<AsaasPayment>;
  pixQrCode(id: string): Promise<v.InferOutput<typeof PixSchema>>;
  digitableLine(id: string): Promise<string>;
}

const PAGE = 100;
/** A customer with more charges than this is cut there (about eight years of monthly bills × 10). */
const MAX_PAGES = 10;

export function createAsaas(options: {
  url: string | undefined;
  token: string | undefined;
  timeoutMs: number;
}): PaymentsProvider {
  const { url, token } = options;
  async function get<T extends v.GenericSchema>(
    path: string,
    schema: T,
    query: Record<string, string> = {},
  ): Promise<v.InferOutput<T>> {
    if (!url || !token)
      throw new HttpError(503, 'PAYMENTS_NOT_CONFIGURED', PAYMENTS_NOT_CONFIGURED);
    const target = new URL(`${url}${path}`);
    for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
    let res: Response;
    try {
      res = await fetch(target, {
        headers: { access_token: token, accept: 'application/json', 'user-agent': 'Rastro' },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch {
      throw paymentError(502, 'INTERNAL_SERVER_ERROR');
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw providerError(res.status);
    }
    const parsed = v.safeParse(schema, await res.json().catch(() => null));
    if (!parsed.success) throw paymentError(502, 'INTERNAL_SERVER_ERROR');
    return parsed.output;
  }
  const id = (value: string) => encodeURIComponent(value);

  return {
    configured: Boolean(url && token),
    async customerByDocument(document) {
      const found = await get('/customers', listOf(CustomerSchema), { cpfCnpj: document });
      const customer = found.data[0];
      if (!customer) throw paymentError(404, 'NOT_FOUND_ON_PAYMENTS_SYSTEM');
      return customer.id;
    },
    async payments(customerId) {
      const all: AsaasPayment[] = [];
      for (let page = 0; page < MAX_PAGES; page++) {
        const list = await get('/payments', listOf(AsaasPaymentSchema), {
          customer: customerId,
          limit: String(PAGE),
          offset: String(page * PAGE),
        });
        all.push(...list.data);
        if (!list.hasMore) break;
      }
      return all;
    },
    payment: (paymentId) => get(`/payments/${id(paymentId)}`, AsaasPaymentSchema),
    pixQrCode: (paymentId) => get(`/payments/${id(paymentId)}/pixQrCode`, PixSchema),
    async digitableLine(paymentId) {
      return (await get(`/payments/${id(paymentId)}/identificationField`, LineSchema))
        .identificationField;
    },
  };
}

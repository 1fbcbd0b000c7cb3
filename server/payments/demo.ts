/**
 * The demo's charges: for each demo company, a year of monthly tracking fees and a few
 * one-off charges, in every status and by every method, dated from today, served by the
 * Asaas stand-in (stand-in.ts). Started only with the demo seed and no PAYMENTS_URL.
 */
import type { AsaasPayment } from './asaas';
import { type AsaasStandIn, type StandInCustomer, startAsaasStandIn } from './stand-in';

/** The demo companies' CNPJs (server/demo/seed.ts): Asaas finds a customer by its document. */
export const DEMO_COMPANY_DOCUMENTS = [
  { name: 'Rastro Demonstração', document: '42731985000175' },
  { name: 'Transportes Norte', document: '58304127000184' },
  { name: 'Logística Sul', document: '69120534000158' },
];

const day = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface Plan {
  offset: number;
  status: string;
  billingType: 'BOLETO' | 'PIX' | 'CREDIT_CARD';
  description: string;
}

/** From the newest: open ones first, then the months already settled. */
const PLAN: Plan[] = [
  { offset: 10, status: 'PENDING', billingType: 'PIX', description: 'Mensalidade de rastreamento' },
  {
    offset: 8,
    status: 'PENDING',
    billingType: 'BOLETO',
    description: 'Instalação de rastreadores',
  },
  { offset: 5, status: 'PENDING', billingType: 'CREDIT_CARD', description: 'Chips de dados (SIM)' },
  {
    offset: -20,
    status: 'OVERDUE',
    billingType: 'BOLETO',
    description: 'Mensalidade de rastreamento',
  },
  {
    offset: -50,
    status: 'RECEIVED',
    billingType: 'PIX',
    description: 'Mensalidade de rastreamento',
  },
  {
    offset: -80,
    status: 'CONFIRMED',
    billingType: 'CREDIT_CARD',
    description: 'Mensalidade de rastreamento',
  },
  {
    offset: -110,
    status: 'RECEIVED_IN_CASH',
    billingType: 'BOLETO',
    description: 'Mensalidade de rastreamento',
  },
  {
    offset: -140,
    status: 'REFUNDED',
    billingType: 'CREDIT_CARD',
    description: 'Visita técnica cancelada',
  },
];

export function demoCharges(
  customers: StandInCustomer[],
  base = 'https://sandbox.asaas.com',
): AsaasPayment[] {
  let number = 1000;
  return customers.flatMap((customer, c) =>
    PLAN.map((plan, i): AsaasPayment => {
      number += 1;
      const id = `pay_demo${c}${i}${customer.id.slice(-4)}`;
      const paid = ['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH'].includes(plan.status);
      const value = plan.description.startsWith('Mensalidade') ? 389.9 + c * 120 : 150 + i * 35.5;
      return {
        id,
        customer: customer.id,
        dateCreated: day(plan.offset - 15),
        value,
        description: plan.description,
        billingType: plan.billingType,
        status: plan.status,
        dueDate: day(plan.offset),
        paymentDate: paid ? day(plan.offset - 2) : null,
        clientPaymentDate: paid ? day(plan.offset - 2) : null,
        confirmedDate: paid ? day(plan.offset - 2) : null,
        invoiceUrl: `${base}/i/${id}`,
        invoiceNumber: String(number),
        bankSlipUrl: plan.billingType === 'BOLETO' ? `${base}/b/pdf/${id}` : null,
        deleted: false,
      };
    }),
  );
}

export async function startDemoPayments(): Promise<AsaasStandIn> {
  const customers = DEMO_COMPANY_DOCUMENTS.map((doc, i) => ({
    id: `cus_demo00000${i + 1}`,
    cpfCnpj: doc.document,
    name: doc.name,
  }));
  return startAsaasStandIn({
    token: `demo-${Math.random().toString(36).slice(2)}`,
    customers,
    payments: demoCharges(customers),
  });
}

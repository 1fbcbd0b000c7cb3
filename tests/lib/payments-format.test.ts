/** Money, days and boleto lines as the payment pages show them; the invoice's breadcrumb. */
import { describe, expect, it } from 'vitest';
import { whatsappLink } from '../../server/payments/routes';
import { formatCurrency, formatDay, formatDigitableLine } from '../../src/lib/format';
import { breadcrumbs } from '../../src/shared/areas/areas';

describe('payment formatting', () => {
  it('writes reais the Brazilian way', () => {
    expect(formatCurrency(389.9)).toBe('R$ 389,90');
    expect(formatCurrency(1234.5)).toBe('R$ 1.234,50');
    expect(formatCurrency(0)).toBe('R$ 0,00');
  });

  it('writes a calendar day as dd/mm/aaaa, with no time zone shift', () => {
    expect(formatDay('2026-12-01')).toBe('01/12/2026');
    expect(formatDay('2026-12-01T02:00:00.000Z')).toBe('01/12/2026');
  });

  it('groups a 47-digit boleto line as banks print it, anything else unchanged', () => {
    const line = '23793381286000000000300000000400184340000010000';
    expect(formatDigitableLine(line)).toBe(
      '23793.38128 60000.000003 00000.000400 1 84340000010000',
    );
    expect(formatDigitableLine('123')).toBe('123');
  });

  it('makes a WhatsApp link of a Brazilian number, keeps a link as given', () => {
    expect(whatsappLink('(81) 99999-0000')).toBe('https://wa.me/5581999990000');
    expect(whatsappLink('+55 81 99999-0000')).toBe('https://wa.me/5581999990000');
    expect(whatsappLink('https://wa.me/558199')).toBe('https://wa.me/558199');
  });

  it('names an invoice “Fatura” in the breadcrumbs', () => {
    expect(breadcrumbs('/payments/pay_abc123').map((c) => c.label)).toEqual([
      'Mapa',
      'Faturas e pagamentos',
      'Fatura',
    ]);
  });
});

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  type Customer,
  CustomerCreateSchema,
  customerOptions,
  flattenCustomers,
} from '../../src/contract';

const customer = (id: string, name: string, children?: Customer[]): Customer => ({
  id,
  name,
  active: true,
  personKind: 'juridical',
  corporateName: null,
  email: null,
  supportEmail: null,
  phone: null,
  clientCPF: null,
  clientCNPJ: '11222333000181',
  motherCompanyId: null,
  requireTwoFactor: false,
  address: {},
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  canceledAt: null,
  ...(children ? { children } : {}),
});

describe('customer tree helpers', () => {
  const tree = customer('1', 'Mãe', [
    customer('2', 'Filha', [customer('3', 'Neta')]),
    customer('4', 'Outra filha'),
  ]);

  it('flattens nested children, parents first', () => {
    expect(flattenCustomers([tree]).map((c) => c.name)).toEqual([
      'Mãe',
      'Filha',
      'Neta',
      'Outra filha',
    ]);
  });

  it('makes dropdown options label=name, value=id', () => {
    expect(customerOptions([tree])).toEqual([
      { label: 'Mãe', value: '1' },
      { label: 'Filha', value: '2' },
      { label: 'Neta', value: '3' },
      { label: 'Outra filha', value: '4' },
    ]);
  });
});

describe('CustomerCreateSchema', () => {
  it('unmasks documents and phones and checks the document against the kind', () => {
    const ok = v.parse(CustomerCreateSchema, {
      personKind: 'fisical',
      name: ' Ana ',
      clientCPF: '529.982.247-25',
      phone: '(81) 99876-5432',
    });
    expect(ok).toMatchObject({ name: 'Ana', clientCPF: '52998224725', phone: '81998765432' });
    const wrongKind = v.safeParse(CustomerCreateSchema, {
      personKind: 'juridical',
      name: 'X',
      clientCPF: '529.982.247-25',
    });
    expect(wrongKind.success).toBe(false);
  });
});

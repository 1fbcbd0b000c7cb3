/**
 * Customers (SPEC §3 "Customer", §7 "Customers"): a person (fisical, CPF) or a company
 * (juridical, CNPJ, numeric or alphanumeric). Documents and phones travel unmasked; a mother
 * company owns child customers to any depth.
 */
import * as v from 'valibot';
import { isValidCnpj, isValidCpf } from '../lib/documents';
import { unmask, unmaskDocument, unmaskPhone } from '../lib/unmask';
import {
  BRAZIL_STATES,
  EmailSchema,
  IdSchema,
  OrderSchema,
  QueryBoolSchema,
  queryInt,
  SearchSchema,
} from './common';
import * as o from './objects';

export const PERSON_KINDS = ['fisical', 'juridical'] as const;
export type PersonKind = (typeof PERSON_KINDS)[number];
export const PERSON_KIND_LABELS: Record<PersonKind, string> = {
  fisical: 'Pessoa física',
  juridical: 'Pessoa jurídica',
};

const text = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max));
const requiredText = (max: number) =>
  v.pipe(v.string(), v.trim(), v.nonEmpty('Campo obrigatório'), v.maxLength(max));

export const CpfSchema = v.pipe(
  v.string(),
  v.transform((s: string) => unmaskDocument(s)),
  v.check((s: string) => isValidCpf(s), 'CPF inválido'),
);
export const CnpjSchema = v.pipe(
  v.string(),
  v.transform((s: string) => unmaskDocument(s)),
  v.check((s: string) => isValidCnpj(s), 'CNPJ inválido'),
);
export const PhoneSchema = v.pipe(
  v.string(),
  v.transform((s: string) => unmaskPhone(s)),
  v.regex(/^(55)?\d{10,11}$/, 'Telefone inválido: use DDD e número'),
);
export const CepSchema = v.pipe(
  v.string(),
  v.transform((s: string) => unmask(s)),
  v.regex(/^\d{8}$/, 'CEP inválido'),
);

export const AddressSchema = o.strictObject({
  cep: v.optional(CepSchema),
  street: v.optional(text(160)),
  number: v.optional(text(20)),
  complement: v.optional(text(80)),
  district: v.optional(text(80)),
  city: v.optional(text(80)),
  state: v.optional(v.picklist(BRAZIL_STATES, 'UF inválida')),
});
export type Address = v.InferOutput<typeof AddressSchema>;

const customerFields = {
  personKind: v.picklist(PERSON_KINDS, 'Tipo de pessoa inválido'),
  name: requiredText(120),
  corporateName: v.optional(text(160)),
  clientCPF: v.optional(CpfSchema),
  clientCNPJ: v.optional(CnpjSchema),
  email: v.optional(EmailSchema),
  supportEmail: v.optional(EmailSchema),
  phone: v.optional(PhoneSchema),
  motherCompanyId: v.optional(IdSchema),
  active: v.optional(v.boolean()),
  /** Its Gestores and Administradores must sign in with two steps. */
  requireTwoFactor: v.optional(v.boolean()),
  address: v.optional(AddressSchema),
};

const CustomerObjectSchema = o.strictObject(customerFields);

/** The document that matches the kind must be present. */
export const CustomerCreateSchema = v.pipe(
  CustomerObjectSchema,
  v.forward(
    v.partialCheck(
      [['personKind'], ['clientCPF']],
      (c) => c.personKind !== 'fisical' || Boolean(c.clientCPF),
      'Informe o CPF',
    ),
    ['clientCPF'],
  ),
  v.forward(
    v.partialCheck(
      [['personKind'], ['clientCNPJ']],
      (c) => c.personKind !== 'juridical' || Boolean(c.clientCNPJ),
      'Informe o CNPJ',
    ),
    ['clientCNPJ'],
  ),
);
export type CustomerCreate = v.InferInput<typeof CustomerCreateSchema>;

const clearable = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema));

/**
 * Every field optional; null clears an optional field. The server checks the merged result
 * with CustomerCreateSchema.
 */
export const CustomerUpdateSchema = o.strictObject({
  ...customerFields,
  personKind: v.optional(customerFields.personKind),
  name: v.optional(customerFields.name),
  corporateName: clearable(text(160)),
  clientCPF: clearable(CpfSchema),
  clientCNPJ: clearable(CnpjSchema),
  email: clearable(EmailSchema),
  supportEmail: clearable(EmailSchema),
  phone: clearable(PhoneSchema),
  address: v.optional(
    o.strictObject({
      cep: clearable(CepSchema),
      street: clearable(text(160)),
      number: clearable(text(20)),
      complement: clearable(text(80)),
      district: clearable(text(80)),
      city: clearable(text(80)),
      state: clearable(v.picklist(BRAZIL_STATES, 'UF inválida')),
    }),
  ),
});
export type CustomerUpdate = v.InferInput<typeof CustomerUpdateSchema>;

export const CUSTOMER_SORTS = ['name', 'email', 'createdAt', 'updatedAt'] as const;

export const CustomerQuerySchema = o.strictObject({
  search: SearchSchema,
  name: SearchSchema,
  page: queryInt(1, 1, 100_000),
  limit: queryInt(10, 1, 10_000),
  sort: v.optional(v.picklist(CUSTOMER_SORTS, 'Ordenação inválida'), 'name'),
  order: OrderSchema,
  active: v.optional(QueryBoolSchema),
  flat: v.optional(QueryBoolSchema),
});

export const MotherCompanyPageQuerySchema = o.strictObject({
  search: SearchSchema,
  name: SearchSchema,
  page: queryInt(1, 1, 100_000),
  limit: queryInt(10, 1, 10_000),
});

export interface Customer {
  id: string;
  active: boolean;
  personKind: PersonKind;
  name: string;
  corporateName: string | null;
  email: string | null;
  supportEmail: string | null;
  phone: string | null;
  clientCPF: string | null;
  clientCNPJ: string | null;
  motherCompanyId: string | null;
  requireTwoFactor: boolean;
  address: Address;
  createdAt: string;
  updatedAt: string;
  canceledAt: string | null;
  children?: Customer[];
}

export const CustomerBaseSchema = o.object({
  id: v.string(),
  active: v.boolean(),
  personKind: v.picklist(PERSON_KINDS),
  name: v.string(),
  corporateName: v.nullable(v.string()),
  email: v.nullable(v.string()),
  supportEmail: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  clientCPF: v.nullable(v.string()),
  clientCNPJ: v.nullable(v.string()),
  motherCompanyId: v.nullable(v.string()),
  requireTwoFactor: v.boolean(),
  address: o.object({
    cep: v.optional(v.string()),
    street: v.optional(v.string()),
    number: v.optional(v.string()),
    complement: v.optional(v.string()),
    district: v.optional(v.string()),
    city: v.optional(v.string()),
    state: v.optional(v.picklist(BRAZIL_STATES)),
  }),
  createdAt: v.string(),
  updatedAt: v.string(),
  canceledAt: v.nullable(v.string()),
});

export const CustomerSchema: v.GenericSchema<Customer> = o.object({
  ...CustomerBaseSchema.entries,
  children: v.optional(v.array(v.lazy(() => CustomerSchema))),
});

/**
 * A customer with its subtree, as GET registros/client/{id} and
 * registros/client/motherCompany/{id} send it: `children` on every node, empty on a leaf.
 */
export interface CustomerTree extends Omit<Customer, 'children'> {
  children: CustomerTree[];
}
export const CustomerTreeSchema: v.GenericSchema<CustomerTree> = o.object({
  ...CustomerBaseSchema.entries,
  children: v.array(v.lazy(() => CustomerTreeSchema)),
});

/**
 * GET registros/client/motherCompanyPagineted/{id}: a page of the mother's descendants, each
 * a plain customer (neither `children` nor `motherCompanyName`).
 */
export const CustomerPageSchema = o.object({
  clients: v.array(CustomerBaseSchema),
  page: v.number(),
  limit: v.number(),
  total: v.number(),
});
export type CustomerPage = v.InferOutput<typeof CustomerPageSchema>;

/** Children nested to any depth, flattened into one list (depth-first, parents first). */
export function flattenCustomers(customers: Customer[]): Customer[] {
  return customers.flatMap((c) => [c, ...flattenCustomers(c.children ?? [])]);
}

/** SPEC §3: dropdown options are label=name, value=id. */
export function customerOptions(customers: Customer[]) {
  return flattenCustomers(customers).map((c) => ({ label: c.name, value: c.id }));
}

export const CepResultSchema = o.object({
  cep: v.string(),
  street: v.string(),
  complement: v.string(),
  district: v.string(),
  city: v.string(),
  state: v.string(),
});
export type CepResult = v.InferOutput<typeof CepResultSchema>;

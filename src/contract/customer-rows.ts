/**
 * A customer as the list (GET registros/client) shows it: the customer and the name of its
 * mother company, so that a child's 'Empresa-mãe' reads a name even when the caller cannot
 * open the mother (a child company's own users) or before any other answer arrives.
 */
import * as v from 'valibot';
import { CustomerBaseSchema } from './customers';
import * as o from './objects';

export const CustomerRowSchema = o.object({
  ...CustomerBaseSchema.entries,
  /** null for a top-level company. */
  motherCompanyName: v.optional(v.nullable(v.string()), null),
});
export type CustomerRow = v.InferOutput<typeof CustomerRowSchema>;

export const CustomerRowPageSchema = o.object({
  clients: v.array(CustomerRowSchema),
  page: v.number(),
  limit: v.number(),
  total: v.number(),
});
export type CustomerRowPage = v.InferOutput<typeof CustomerRowPageSchema>;

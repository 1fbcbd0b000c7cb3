/**
 * The pieces every route file's OpenAPI description uses: a JSON answer of a schema, and the
 * `:id` path parameter.
 */
import { resolver } from 'hono-openapi';
import type * as v from 'valibot';
import { IdSchema } from '../../../src/contract';
import * as o from '../../../src/contract/objects';

/** A JSON answer described by its schema (one entry of `responses`). */
export const docs = (schema: v.GenericSchema, description: string) => ({
  description,
  content: { 'application/json': { schema: resolver(schema) } },
});

/** The `:id` of a record: a UUID, or 400 'Identificador inválido'. */
export const IdParam = o.object({ id: IdSchema });

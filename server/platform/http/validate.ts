/**
 * Request validation with the contract schemas. hono-openapi's validator both checks the
 * input and lists the schema in the OpenAPI document; the hook turns a failure into a 400
 * with the pt-BR messages of src/contract/messages.ts.
 *
 * Before the schema runs, the raw input passes the rules every route shares: a JSON body
 * must be declared as JSON (415 otherwise: Hono would quietly read any other type as `{}`
 * and the route would answer 200 with nothing changed), must be an object where the schema
 * expects one (valibot's object schemas accept arrays), and no text anywhere may carry NUL
 * (the contract's rule; PostgreSQL cannot store it).
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Context, Env, MiddlewareHandler, ValidationTargets } from 'hono';
import { validator } from 'hono-openapi';
import { findNul, NUL_MESSAGE } from '../../../src/contract';
import { errorBody, HttpError } from './errors';

type Issue = StandardSchemaV1.Issue;

function issuePath(issue: Issue): string {
  return (issue.path ?? [])
    .map((part) => (typeof part === 'object' && part !== null && 'key' in part ? part.key : part))
    .map(String)
    .join('.');
}

export function describeIssues(issues: readonly Issue[]) {
  return issues.map((issue) => ({ path: issuePath(issue), message: issue.message }));
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;
export const UNSUPPORTED_TYPE = 'Tipo de conteúdo não suportado: envie application/json';
export const NOT_AN_OBJECT = 'Corpo inválido: envie um objeto JSON';

/** A 400 about one field, in the shape a failed validation gives (message and issues). */
export function invalid(path: string, message: string): HttpError {
  return new HttpError(
    400,
    'BAD_REQUEST',
    `Requisição inválida: ${path ? `${path}: ` : ''}${message}`,
    {
      issues: [{ path, message }],
    },
  );
}

/** Whether a schema describes an object (valibot object, strict, loose, partial). */
function expectsObject(schema: unknown): boolean {
  const type = (schema as { type?: unknown }).type;
  return typeof type === 'string' && type.endsWith('object');
}

/** The raw input of a target, as the validator will see it (the JSON body is cached). */
async function rawInput(c: Context, target: keyof ValidationTargets, schema: unknown) {
  switch (target) {
    case 'json': {
      const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim() ?? '';
      if (!JSON_TYPE.test(type)) throw new HttpError(415, 'BAD_REQUEST', UNSUPPORTED_TYPE);
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw new HttpError(400, 'BAD_REQUEST', 'Corpo da requisição inválido: JSON malformado');
      }
      if (
        expectsObject(schema) &&
        (body === null || typeof body !== 'object' || Array.isArray(body))
      )
        throw new HttpError(400, 'BAD_REQUEST', NOT_AN_OBJECT);
      return body;
    }
    case 'query':
      return Object.fromEntries(
        Object.entries(c.req.queries()).map(([key, values]) => [
          key,
          values.length === 1 ? values[0] : values,
        ]),
      );
    case 'param':
      return c.req.param();
    default:
      return undefined;
  }
}

export function validate<S extends StandardSchemaV1, T extends keyof ValidationTargets>(
  target: T,
  schema: S,
) {
  const inner = validator<S, T, Env, string>(target, schema, (result, c) => {
    if (result.success) return;
    const issues = describeIssues(result.error);
    const first = issues[0];
    const message = first
      ? `Requisição inválida: ${first.path ? `${first.path}: ` : ''}${first.message}`
      : 'Requisição inválida';
    return c.json(errorBody(400, 'BAD_REQUEST', message, { issues }), 400);
  });
  const guarded: MiddlewareHandler = async (c, next) => {
    const raw = await rawInput(c, target, schema);
    const nul = findNul(raw);
    if (nul !== undefined) throw invalid(nul, NUL_MESSAGE);
    return inner(c, next);
  };
  // Keep the marks hono-openapi reads to document the route's input.
  return Object.assign(guarded, inner) as typeof inner;
}

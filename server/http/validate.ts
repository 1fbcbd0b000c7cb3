/**
 * Request validation with the contract schemas. hono-openapi's validator both checks the
 * input and lists the schema in the OpenAPI document; the hook turns a failure into a 400
 * with the pt-BR messages of src/contract/messages.ts.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Env, ValidationTargets } from 'hono';
import { validator } from 'hono-openapi';
import { errorBody } from './errors';

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

export function validate<S extends StandardSchemaV1, T extends keyof ValidationTargets>(
  target: T,
  schema: S,
) {
  return validator<S, T, Env, string>(target, schema, (result, c) => {
    if (result.success) return;
    const issues = describeIssues(result.error);
    const first = issues[0];
    const message = first
      ? `Requisição inválida: ${first.path ? `${first.path}: ` : ''}${first.message}`
      : 'Requisição inválida';
    return c.json(errorBody(400, 'BAD_REQUEST', message, { issues }), 400);
  });
}

/**
 * pt-BR default messages for every valibot issue that a schema does not name itself, so that
 * no English text reaches a user from any runtime. Imported once by the contract index.
 */
import * as v from 'valibot';

const TYPE_NAMES: Record<string, string> = {
  string: 'texto',
  number: 'número',
  boolean: 'verdadeiro ou falso',
  object: 'objeto',
  Object: 'objeto',
  Array: 'lista',
  array: 'lista',
  date: 'data',
  null: 'nulo',
  undefined: 'ausente',
};

function describeExpected(expected: string | null): string {
  if (!expected) return 'outro valor';
  return expected
    .split(' | ')
    .map((part) => TYPE_NAMES[part] ?? part)
    .join(' ou ');
}

/** Lengths of lists count items; lengths of texts count characters. */
function unitOf(input: unknown): string {
  return Array.isArray(input) ? 'itens' : 'caracteres';
}

export function ptBrMessage(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema' && issue.input === undefined && issue.expected !== 'never') {
    return 'Campo obrigatório';
  }
  switch (issue.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'object':
    case 'array':
    case 'date':
      return `Tipo inválido: esperado ${describeExpected(issue.expected)}`;
    case 'strict_object':
    case 'loose_object':
    case 'object_with_rest':
    case 'record':
    case 'never':
      return issue.expected === 'never' ? 'Campo não permitido' : 'Tipo inválido: esperado objeto';
    case 'picklist':
    case 'enum':
    case 'literal':
    case 'union':
    case 'variant':
      return 'Valor não permitido';
    case 'min_length':
    case 'non_empty':
      if (issue.requirement === 1 || issue.type === 'non_empty') return 'Campo obrigatório';
      return `Deve ter pelo menos ${String(issue.requirement)} ${unitOf(issue.input)}`;
    case 'max_length':
      return `Deve ter no máximo ${String(issue.requirement)} ${unitOf(issue.input)}`;
    case 'min_value':
      return `Deve ser no mínimo ${String(issue.requirement)}`;
    case 'max_value':
      return `Deve ser no máximo ${String(issue.requirement)}`;
    case 'integer':
      return 'Deve ser um número inteiro';
    case 'email':
      return 'E-mail inválido';
    case 'uuid':
      return 'Identificador inválido';
    case 'url':
      return 'Endereço (URL) inválido';
    case 'iso_timestamp':
    case 'iso_date_time':
    case 'iso_date':
      return 'Data inválida';
    case 'regex':
      return 'Formato inválido';
    default:
      return 'Valor inválido';
  }
}

v.setGlobalMessage(ptBrMessage);

/** 'campo.sub: mensagem' list of a failed parse, for API errors and forms. */
export function flattenIssues(
  issues: readonly v.BaseIssue<unknown>[],
): { path: string; message: string }[] {
  return issues.map((issue) => ({
    path: (issue.path ?? []).map((item) => String(item.key)).join('.'),
    message: issue.message,
  }));
}

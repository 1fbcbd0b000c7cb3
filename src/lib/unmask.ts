/**
 * Masked inputs (plate, CPF, CNPJ, phone, CEP) are stored and sent without formatting.
 * SPEC §5: every non-word character is removed. Plates and CNPJs are upper-cased because the
 * Mercosul plate and the alphanumeric CNPJ carry letters.
 */
export function unmask(value: string | null | undefined): string {
  return (value ?? '').replace(/[\W_]/g, '');
}

export function unmaskPlate(value: string | null | undefined): string {
  return unmask(value).toUpperCase();
}

export function unmaskDocument(value: string | null | undefined): string {
  return unmask(value).toUpperCase();
}

export function unmaskPhone(value: string | null | undefined): string {
  return (value ?? '').replace(/\D/g, '');
}

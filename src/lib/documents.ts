/**
 * Brazilian document check digits. CPF: 11 digits, modulo 11. CNPJ: 14 characters, modulo 11
 * with weights 2..9; since 2026 the first 12 may be letters (the alphanumeric CNPJ), each
 * worth its ASCII code minus 48, while the two check digits stay numeric.
 */
import { unmaskDocument } from './unmask';

function allSame(value: string): boolean {
  return value.split('').every((c) => c === value[0]);
}

export function isValidCpf(input: string | null | undefined): boolean {
  const cpf = unmaskDocument(input);
  if (!/^\d{11}$/.test(cpf) || allSame(cpf)) return false;
  const digit = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(cpf[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return digit(9) === Number(cpf[9]) && digit(10) === Number(cpf[10]);
}

function cnpjDigit(base: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = base.length - 1; i >= 0; i--) {
    sum += (base.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCnpj(input: string | null | undefined): boolean {
  const cnpj = unmaskDocument(input);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || allSame(cnpj)) return false;
  const first = cnpjDigit(cnpj.slice(0, 12));
  const second = cnpjDigit(cnpj.slice(0, 12) + String(first));
  return first === Number(cnpj[12]) && second === Number(cnpj[13]);
}

/** Old plates (AAA9999) and Mercosul plates (AAA9A99). */
export function isValidPlate(input: string | null | undefined): boolean {
  return /^[A-Z]{3}\d[A-Z0-9]\d{2}$/.test(unmaskDocument(input));
}

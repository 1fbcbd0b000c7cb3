/**
 * Brazilian document check digits. CPF: 11 digits, modulo 11. CNPJ: 14 characters, modulo 11
 * with weights 2..9; since 2026 the first 12 may be letters (the alphanumeric CNPJ), each
 * worth its ASCII code minus 48, while the two check digits stay numeric.
 */
import { unmaskDocument } from './unmask';

function allSame(value: string): boolean {
  return value.split('').every((c) => c === value[0]);
}

/** The CPF check digit after these digits (the first after nine, the second after ten). */
function cpfDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (digits.length + 1 - i);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

export function isValidCpf(input: string | null | undefined): boolean {
  const cpf = unmaskDocument(input);
  if (!/^\d{11}$/.test(cpf) || allSame(cpf)) return false;
  return (
    cpfDigit(cpf.slice(0, 9)) === Number(cpf[9]) && cpfDigit(cpf.slice(0, 10)) === Number(cpf[10])
  );
}

/** A valid CPF (11 digits) from its first nine: the demo's drivers and the tests' own. */
export function cpfFromBase(base: string): string {
  const first = cpfDigit(base);
  return `${base}${first}${cpfDigit(`${base}${first}`)}`;
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

/** Luhn checksum over a string of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** SIM card ICCID: 19 or 20 digits starting with 89 (telecom), Luhn-checked. */
export function isValidIccid(input: string | null | undefined): boolean {
  const iccid = (input ?? '').replace(/\D/g, '');
  return /^89\d{17,18}$/.test(iccid) && luhnValid(iccid.length === 20 ? iccid.slice(0, 19) : iccid);
}

/** IMEI: 15 digits, Luhn-checked. */
export function isValidImei(input: string | null | undefined): boolean {
  const imei = (input ?? '').replace(/\D/g, '');
  return imei.length === 15 && luhnValid(imei);
}

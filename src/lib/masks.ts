/**
 * Input masks for Brazilian documents and numbers, applied while the user types. The value
 * sent to the server is unmasked again (unmask.ts); these only format what is shown.
 */
function apply(pattern: string, raw: string): string {
  let out = '';
  let i = 0;
  for (const slot of pattern) {
    if (i >= raw.length) break;
    if (slot === '#' || slot === 'X') {
      out += raw[i];
      i += 1;
    } else {
      out += slot;
    }
  }
  return out;
}

const digits = (value: string) => value.replace(/\D/g, '');
const alnum = (value: string) => value.toUpperCase().replace(/[^0-9A-Z]/g, '');

export function maskCpf(value: string): string {
  return apply('###.###.###-##', digits(value).slice(0, 11));
}

/** Numeric or alphanumeric CNPJ: 12 letters or digits, then two check digits. */
export function maskCnpj(value: string): string {
  const raw = alnum(value);
  const base = raw.slice(0, 12);
  const check = raw.slice(12).replace(/\D/g, '').slice(0, 2);
  return apply('XX.XXX.XXX/XXXX-##', base + check);
}

/** (81) 3222-1111 or (81) 99876-5432. */
export function maskPhone(value: string): string {
  const raw = digits(value).slice(0, 11);
  return raw.length <= 10 ? apply('(##) ####-####', raw) : apply('(##) #####-####', raw);
}

export function maskCep(value: string): string {
  return apply('#####-###', digits(value).slice(0, 8));
}

/** ABC-1234 (old) or ABC1D23 (Mercosul). */
export function maskPlate(value: string): string {
  const raw = alnum(value).slice(0, 7);
  return /^[A-Z]{3}\d{4}$/.test(raw) ? `${raw.slice(0, 3)}-${raw.slice(3)}` : raw;
}

import { describe, expect, it } from 'vitest';
import { removeEmptyProperties } from '../../src/lib/clean';

describe('removeEmptyProperties', () => {
  it('drops empty, null, undefined and NaN properties', () => {
    expect(
      removeEmptyProperties({
        a: '',
        b: null,
        c: undefined,
        d: Number.NaN,
        e: 0,
        f: false,
        g: 'x',
      }),
    ).toEqual({ e: 0, f: false, g: 'x' });
  });

  it('cleans nested objects and object items of arrays', () => {
    const out = removeEmptyProperties({
      address: { street: 'Rua A', number: '', city: { name: 'Recife', code: null } },
      contacts: [{ name: 'Ana', phone: undefined }, null, ''],
    });
    expect(out).toEqual({
      address: { street: 'Rua A', city: { name: 'Recife' } },
      contacts: [{ name: 'Ana' }],
    });
  });

  it('keeps dates and does not change the input', () => {
    const date = new Date('2026-01-01T00:00:00Z');
    const input = { at: date, note: '' };
    expect(removeEmptyProperties(input)).toEqual({ at: date });
    expect(input).toEqual({ at: date, note: '' });
  });

  it('treats blank strings as empty', () => {
    expect(removeEmptyProperties({ name: '   ' })).toEqual({});
  });
});

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { DevicePasswordSchema } from '../../src/contract';
import {
  generateDevicePassword,
  nativeSms,
  osmandServerUrl,
  traccarClientLink,
  wialonLogin,
} from '../../src/lib/device-setup';

const endpoint = { host: 'rastro.exemplo.com.br', port: 5055, identifier: '490154203237518' };

describe('device setup', () => {
  it('proposes strong passwords the device password rules take', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const password = generateDevicePassword();
      expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{16}$/);
      expect(v.is(DevicePasswordSchema, password)).toBe(true);
      seen.add(password);
    }
    expect(seen.size).toBe(200);
  });

  it('puts the password in the phone app’s server URL and its QR link', () => {
    const e = { ...endpoint, password: 'abcDEF234' };
    expect(osmandServerUrl(e)).toBe('http://rastro.exemplo.com.br:5055/?password=abcDEF234');
    const link = traccarClientLink(e);
    expect(link?.startsWith('org.traccar.client://?')).toBe(true);
    const query = new URLSearchParams(link?.split('?').slice(1).join('?'));
    expect(query.get('url')).toBe('http://rastro.exemplo.com.br:5055/?password=abcDEF234');
    expect(query.get('id')).toBe('490154203237518');
    // Without a known password (kept only as a hash), the URL has none.
    expect(osmandServerUrl({ ...endpoint, password: null })).toBe(
      'http://rastro.exemplo.com.br:5055/',
    );
    expect(osmandServerUrl({ ...endpoint, port: null, password: 'x' })).toBeNull();
  });

  it('writes the Wialon IPS login the device sends', () => {
    expect(wialonLogin({ ...endpoint, port: 5039, password: 'p4ss' }, 'SENHA')).toBe(
      '#L#2.0;490154203237518;p4ss;',
    );
    expect(wialonLogin({ ...endpoint, port: 5039, password: null }, 'SENHA')).toBe(
      '#L#2.0;490154203237518;SENHA;',
    );
  });
});

describe("the text message that points a makers' device at the server", () => {
  it('writes each family its own command, with the port, or none where there is none', () => {
    expect(nativeSms('gt06', 'rastro.exemplo.com.br', 5023)).toBe(
      'SERVER,1,rastro.exemplo.com.br,5023,0#',
    );
    // An address, not a domain: GT06 is told which of the two it gets.
    expect(nativeSms('gt06', '200.10.20.30', 5023)).toBe('SERVER,0,200.10.20.30,5023,0#');
    expect(nativeSms('teltonika', 'rastro.exemplo.com.br', 5027)).toBe(
      '  setparam 2004:rastro.exemplo.com.br;2005:5027;2006:0',
    );
    expect(nativeSms('queclink', 'rastro.exemplo.com.br', 5004, 'gv55')).toBe(
      'AT+GTSRI=gv55,3,,1,rastro.exemplo.com.br,5004,,,,5,1,0,0,,,FFFF$',
    );
    expect(nativeSms('suntech', 'rastro.exemplo.com.br', 5011)).toBeNull();
    expect(nativeSms('gt06', 'rastro.exemplo.com.br', null)).toBeNull();
  });
});

import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markerIcon, VEHICLE_TYPE_LABELS, VEHICLE_TYPES, vehicleOption } from '../../src/contract';

describe('vehicle types', () => {
  it('has about 50 types, each with a pt-BR label and a marker icon in public/', () => {
    expect(VEHICLE_TYPES.length).toBeGreaterThanOrEqual(50);
    for (const [id, label] of VEHICLE_TYPES) {
      expect(label.length).toBeGreaterThan(1);
      expect(existsSync(`public${markerIcon(id)}`), id).toBe(true);
    }
    expect(VEHICLE_TYPE_LABELS.truck).toBe('Caminhão');
    expect(VEHICLE_TYPE_LABELS.helicopter).toBe('Helicóptero');
  });

  it('falls back to the default marker', () => {
    expect(markerIcon('disco-voador')).toBe('/markers/default.svg');
  });

  it("labels vehicle options 'plate | name'", () => {
    expect(vehicleOption({ id: '1', plate: 'ABC1D23', name: 'Baú 01' })).toEqual({
      label: 'ABC1D23 | Baú 01',
      value: '1',
    });
  });
});

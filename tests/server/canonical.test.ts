import { describe, expect, it } from 'vitest';
import {
  canonicalize,
  FLESPI_ALIASES,
  OSMAND_ALIASES,
  WIALON_ALIASES,
} from '../../server/ingest/canonical';

describe('canonical telemetry readings', () => {
  it("finds each reading under the protocol's names, whatever their case, first alias first", () => {
    const attributes = {
      ENGINE_TEMP: '91,5',
      can_rpm: 1800,
      rpm: null,
      Fuel_Level: 40,
      fuel: 99,
      PWR_EXT: '12.6',
      power_cut: 'sim',
      IN1: 0,
      hdop: 0.9,
    };
    expect(canonicalize(attributes, WIALON_ALIASES)).toEqual({
      ...attributes,
      engineTemp: 91.5,
      rpm: 1800,
      fuelLevel: 40,
      power: 12.6,
      powerCut: true,
      din1: false,
    });
  });

  it('keeps a canonical value already given, and reads a canonical name sent as text', () => {
    expect(canonicalize({ rpm: 900, engine_rpm: 1500 }, WIALON_ALIASES)).toEqual({
      rpm: 900,
      engine_rpm: 1500,
    });
    expect(canonicalize({ fuelLevel: '33' }, OSMAND_ALIASES)).toEqual({ fuelLevel: 33 });
  });

  it('leaves text that is no reading as a raw attribute, and adds nothing it did not find', () => {
    expect(canonicalize({ fuel_level: 'cheio', power_cut: 'talvez' }, WIALON_ALIASES)).toEqual({
      fuel_level: 'cheio',
      power_cut: 'talvez',
    });
    expect(canonicalize({}, FLESPI_ALIASES)).toEqual({});
    expect(canonicalize({ 'engine.temperature': 88, 'din.1': true }, FLESPI_ALIASES)).toMatchObject(
      { engineTemp: 88, din1: true },
    );
  });

  it('reads every alias from the attributes as they came, not from readings set meanwhile', () => {
    // `power` is both OsmAnd's name for the supply and the canonical name: the text '12,4'
    // is the reading, found under its own name.
    expect(canonicalize({ power: '12,4', coolantTemp: 80 }, OSMAND_ALIASES)).toEqual({
      power: 12.4,
      coolantTemp: 80,
      engineTemp: 80,
    });
  });
});

/**
 * Canonical telemetry: the few readings the alert engine needs, under one name whatever the
 * protocol called them. Each parser (OsmAnd, Wialon IPS, flespi) calls `canonicalize` once
 * with its own spellings, before the physical bounds are checked (server/ingest/bounds.ts),
 * where a canonical value out of its range is dropped and kept under `implausible`. The raw
 * attributes stay as they came; the canonical ones are added beside them:
 *
 * - `engineTemp` engine (coolant) temperature, °C
 * - `rpm` engine speed, revolutions per minute
 * - `fuelLevel` fuel level, % of the tank
 * - `fuelLiters` fuel in the tank, litres (a sensor calibrated in litres)
 * - `power` external power supply, volts
 * - `powerCut` the tracker says its external power was cut (true) or is present (false)
 * - `din1` digital input 1 is on
 */

export const CANONICAL = [
  'engineTemp',
  'rpm',
  'fuelLevel',
  'fuelLiters',
  'power',
  'powerCut',
  'din1',
] as const;
export type Canonical = (typeof CANONICAL)[number];

type Kind = 'number' | 'boolean';
const KIND: Record<Canonical, Kind> = {
  engineTemp: 'number',
  rpm: 'number',
  fuelLevel: 'number',
  fuelLiters: 'number',
  power: 'number',
  powerCut: 'boolean',
  din1: 'boolean',
};

/** Each protocol's names of the canonical readings, first match wins. */
export type Aliases = Partial<Record<Canonical, readonly string[]>>;

export const WIALON_ALIASES: Aliases = {
  engineTemp: [
    'engine_temp',
    'eng_temp',
    'temp_engine',
    'coolant_temp',
    'engine_temperature',
    'can_engine_temp',
    'can_coolant_temp',
  ],
  rpm: ['rpm', 'engine_rpm', 'can_rpm', 'can_engine_rpm'],
  fuelLevel: ['fuel_level', 'fuel_lvl', 'can_fuel_level', 'fuel_percent', 'fuel'],
  fuelLiters: ['fuel_liters', 'fuel_litres', 'fuel_l', 'fuel_volume', 'can_fuel_liters'],
  power: ['pwr_ext', 'power', 'ext_power', 'power_ext', 'pwr', 'vext', 'external_voltage'],
  powerCut: ['power_cut', 'pwr_cut'],
  din1: ['din1', 'in1'],
};

export const FLESPI_ALIASES: Aliases = {
  engineTemp: [
    'engine.temperature',
    'can.engine.temperature',
    'engine.coolant.temperature',
    'can.engine.coolant.temperature',
  ],
  rpm: ['engine.rpm', 'can.engine.rpm'],
  fuelLevel: ['fuel.level', 'can.fuel.level'],
  fuelLiters: ['fuel.volume', 'can.fuel.volume'],
  power: ['external.powersource.voltage'],
  din1: ['din.1'],
};

/** Traccar's names (Traccar Client and the apps that copy it), and the obvious others. */
export const OSMAND_ALIASES: Aliases = {
  engineTemp: ['coolantTemp', 'engineTemp', 'engine_temp', 'temp_engine'],
  rpm: ['rpm'],
  fuelLevel: ['fuelLevel', 'fuel_level', 'fuel'],
  fuelLiters: ['fuelLiters', 'fuel_liters', 'fuelVolume'],
  power: ['power', 'externalPower', 'pwr_ext'],
  powerCut: ['powerCut', 'power_cut'],
  din1: ['din1', 'in1', 'input1'],
};

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.replace(',', '.'));
    // Text that is no number is no reading: it stays a raw attribute, checked as text.
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (['1', 'true', 'on', 'yes', 'sim'].includes(text)) return true;
    if (['0', 'false', 'off', 'no', 'não', 'nao'].includes(text)) return false;
  }
  return undefined;
}

/** Each alias list lower-cased once (the lists are the constants above). */
const lowered = new WeakMap<Aliases, Partial<Record<Canonical, string[]>>>();

function lowerAliases(aliases: Aliases): Partial<Record<Canonical, string[]>> {
  let lists = lowered.get(aliases);
  if (!lists) {
    lists = {};
    for (const name of CANONICAL) lists[name] = (aliases[name] ?? []).map((a) => a.toLowerCase());
    lowered.set(aliases, lists);
  }
  return lists;
}

/**
 * Adds the canonical readings found under the protocol's names (case-insensitive) to the
 * attributes, in place; a canonical name already present wins. Returns the attributes.
 * Runs on every fix: the lower-cased keys are built only when an alias must be looked up.
 */
export function canonicalize(
  attributes: Record<string, unknown>,
  aliases: Aliases,
): Record<string, unknown> {
  const lists = lowerAliases(aliases);
  let lower: Map<string, unknown> | undefined;
  // Set after the loop, so that the lower-cased keys, whenever built, are those that came.
  const readings: [Canonical, number | boolean][] = [];
  for (const name of CANONICAL) {
    const own = attributes[name];
    let found: unknown;
    if (own !== undefined && own !== null && typeof own !== 'string') found = own;
    else {
      for (const alias of lists[name] ?? []) {
        if (!lower) {
          lower = new Map();
          for (const key of Object.keys(attributes)) lower.set(key.toLowerCase(), attributes[key]);
        }
        const value = lower.get(alias);
        if (value !== undefined && value !== null) {
          found = value;
          break;
        }
      }
    }
    if (found === undefined) continue;
    const value = KIND[name] === 'number' ? asNumber(found) : asBoolean(found);
    if (value !== undefined) readings.push([name, value]);
  }
  for (const [name, value] of readings) attributes[name] = value;
  return attributes;
}

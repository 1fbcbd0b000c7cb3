/**
 * The demo fleet, as plain data shared by the seed (what exists) and the simulator (how each
 * vehicle behaves): forty vehicles of the three demo companies around Recife, each with its
 * own route, speed and schedule — trucks on the BR-101 and BR-232, vans and motorcycles
 * delivering in Boa Viagem, a bus line, a boat in the harbour, a tractor in the cane fields —
 * some speeding, some parked with the engine running, some off for the night, one without
 * signal for an hour, a few with their driver identified by an RFID tag.
 */

export type Company = 'mother' | 'north' | 'south';

/** [latitude, longitude] */
export type Place = readonly [number, number];

/** Places of Recife and around that routes pass through (approximate, on or near the roads). */
export const PLACES = {
  marcoZero: [-8.0631, -34.8711],
  recifeAntigo: [-8.0605, -34.8725],
  port: [-8.0555, -34.8705],
  boaVista: [-8.0602, -34.8882],
  derby: [-8.0568, -34.8985],
  agamenonNorth: [-8.0418, -34.8965],
  madalena: [-8.0545, -34.9105],
  casaForte: [-8.0355, -34.9172],
  caxanga: [-8.0452, -34.9338],
  ufpe: [-8.0505, -34.9505],
  afogados: [-8.0808, -34.9075],
  imbiribeira: [-8.1045, -34.9112],
  shoppingRecife: [-8.1187, -34.9049],
  boaViagemNorth: [-8.0985, -34.8857],
  boaViagemSouth: [-8.1352, -34.9003],
  airport: [-8.1262, -34.9226],
  prazeres: [-8.1655, -34.9265],
  jaboataoBr101: [-8.146, -34.9455],
  ceasa: [-8.0708, -34.9565],
  br232Curado: [-8.0745, -34.9765],
  br232Moreno: [-8.1105, -35.0705],
  olindaCarmo: [-8.0135, -34.8512],
  olindaAv: [-8.0305, -34.8645],
  br101Norte: [-7.9955, -34.9085],
  paulista: [-7.9415, -34.8735],
  encruzilhada: [-8.0385, -34.8865],
  beberibe: [-8.0155, -34.8965],
  canaFieldA: [-7.9985, -35.0335],
  canaFieldB: [-8.0065, -35.0415],
  canaFieldC: [-8.0125, -35.0305],
  harbourA: [-8.0565, -34.8655],
  harbourB: [-8.0445, -34.8595],
  harbourC: [-8.0625, -34.8575],
  beachSeaA: [-8.1105, -34.8868],
  beachSeaB: [-8.1285, -34.8935],
  warehouseA: [-8.0712, -34.9545],
  warehouseB: [-8.0718, -34.9552],
  siteNorth: [-8.0895, -34.9195],
  siteNorthB: [-8.0925, -34.9232],
  siteSouth: [-8.1405, -34.9165],
} as const satisfies Record<string, Place>;

type PlaceName = keyof typeof PLACES;

/** A stretch of a route: where it goes, how fast, and what happens on arrival. */
export interface Leg {
  to: PlaceName;
  kmh: number;
  /** Seconds stopped on arrival (a delivery, a bus stop). */
  dwellS?: number;
  /** The engine is turned off during that stop. */
  engineOff?: boolean;
}

export type Plan =
  /** Drives its legs round and round, starting `phase` (0–1) into the loop. */
  | { kind: 'drive'; legs: Leg[]; phase: number }
  /** Parked: with the engine running (idle) or off (reports rarely, as trackers do at night). */
  | { kind: 'parked'; at: PlaceName; ignition: boolean }
  /** Lost its signal: one fix from `minutesAgo` ago and nothing since. */
  | { kind: 'silent'; at: PlaceName; minutesAgo: number };

export interface DemoDriver {
  name: string;
  rfid: string;
  licenseCategory: 'A' | 'B' | 'C' | 'D' | 'E' | 'AB' | 'AE';
}

export interface DemoVehicle {
  identifier: string;
  /** The protocol its (simulated) device speaks. */
  protocol: DemoProtocol;
  company: Company;
  plate: string;
  name: string;
  type: string;
  brand: string;
  model: string;
  year: number;
  color: string;
  plan: Plan;
  /** The tracker's backup battery (%), each its own. */
  battery: number;
  driver?: DemoDriver;
  /**
   * A fuel sensor calibrated in litres on a tank of this size: the simulator has fuel stolen
   * from it and refilled (server/demo/simulator.ts, fuelAt).
   */
  fuelTank?: number;
}

const drive = (phase: number, ...legs: Leg[]): Plan => ({ kind: 'drive', legs, phase });
const idle = (at: PlaceName): Plan => ({ kind: 'parked', at, ignition: true });
const night = (at: PlaceName): Plan => ({ kind: 'parked', at, ignition: false });

type Row = Omit<DemoVehicle, 'identifier' | 'protocol'>;

const ROWS: Row[] = [
  // ── Rastro Demonstração (mother): its own service fleet ──────────────────────────────
  {
    company: 'mother',
    plate: 'PCX1A23',
    name: 'Onix Diretoria',
    type: 'car',
    brand: 'Chevrolet',
    model: 'Onix Plus',
    year: 2023,
    color: 'Prata',
    battery: 96,
    driver: { name: 'Carlos Eduardo Lima', rfid: '01A4C3E2F1', licenseCategory: 'B' },
    plan: drive(
      0.1,
      { to: 'boaViagemNorth', kmh: 48 },
      { to: 'marcoZero', kmh: 42, dwellS: 240 },
      { to: 'boaVista', kmh: 35 },
      { to: 'boaViagemSouth', kmh: 50, dwellS: 180, engineOff: true },
    ),
  },
  {
    company: 'mother',
    plate: 'PDA4B56',
    name: 'Hilux Suporte Técnico',
    type: 'pickup',
    brand: 'Toyota',
    model: 'Hilux SR',
    year: 2022,
    color: 'Branca',
    battery: 88,
    driver: { name: 'Rafael Nunes Pereira', rfid: '05E2A8C4B7', licenseCategory: 'B' },
    plan: drive(
      0.55,
      { to: 'derby', kmh: 45 },
      { to: 'encruzilhada', kmh: 40 },
      { to: 'olindaAv', kmh: 50 },
      { to: 'olindaCarmo', kmh: 35, dwellS: 300 },
      { to: 'agamenonNorth', kmh: 55 },
    ),
  },
  {
    company: 'mother',
    plate: 'PEB7C89',
    name: 'Sprinter Instalações 1',
    type: 'van',
    brand: 'Mercedes-Benz',
    model: 'Sprinter 416',
    year: 2021,
    color: 'Branca',
    battery: 91,
    driver: { name: 'Luciana Alves Moreira', rfid: '06F4B1D8A3', licenseCategory: 'B' },
    plan: drive(
      0.3,
      { to: 'imbiribeira', kmh: 40, dwellS: 420, engineOff: true },
      { to: 'afogados', kmh: 38 },
      { to: 'madalena', kmh: 36, dwellS: 360, engineOff: true },
      { to: 'derby', kmh: 32 },
    ),
  },
  {
    company: 'mother',
    plate: 'PEB2D34',
    name: 'Sprinter Instalações 2',
    type: 'van',
    brand: 'Mercedes-Benz',
    model: 'Sprinter 416',
    year: 2021,
    color: 'Branca',
    battery: 67,
    plan: idle('casaForte'),
  },
  {
    company: 'mother',
    plate: 'QYA5E67',
    name: 'Moto Técnico 1',
    type: 'motorcycle',
    brand: 'Honda',
    model: 'CG 160 Cargo',
    year: 2024,
    color: 'Vermelha',
    battery: 79,
    plan: drive(
      0.7,
      { to: 'boaVista', kmh: 48 },
      { to: 'recifeAntigo', kmh: 52, dwellS: 120 },
      { to: 'derby', kmh: 58 },
      { to: 'madalena', kmh: 45, dwellS: 150 },
    ),
  },
  {
    company: 'mother',
    plate: 'PFC8F90',
    name: 'SUV Comercial',
    type: 'suv',
    brand: 'Jeep',
    model: 'Compass',
    year: 2023,
    color: 'Preta',
    battery: 93,
    // The BR-101 south at 115 km/h: speeding, every trip.
    plan: drive(
      0.2,
      { to: 'afogados', kmh: 45 },
      { to: 'jaboataoBr101', kmh: 115 },
      { to: 'prazeres', kmh: 70, dwellS: 600, engineOff: true },
      { to: 'imbiribeira', kmh: 108 },
      { to: 'derby', kmh: 45 },
    ),
  },
  {
    company: 'mother',
    plate: 'PGA3G12',
    name: 'Lancha de Apoio ao Porto',
    type: 'boat',
    brand: 'Fibrafort',
    model: 'Focker 240',
    year: 2019,
    color: 'Branca',
    battery: 84,
    plan: drive(
      0.45,
      { to: 'harbourB', kmh: 22 },
      { to: 'harbourC', kmh: 28 },
      { to: 'harbourA', kmh: 16, dwellS: 240 },
    ),
  },
  {
    company: 'mother',
    plate: 'PGA6H45',
    name: 'Jet ski Salva-vidas',
    type: 'jet_ski',
    brand: 'Sea-Doo',
    model: 'GTI 130',
    year: 2022,
    color: 'Amarela',
    battery: 72,
    plan: drive(0.05, { to: 'beachSeaB', kmh: 32 }, { to: 'beachSeaA', kmh: 26, dwellS: 180 }),
  },
  {
    company: 'mother',
    plate: 'PCX9J78',
    name: 'Corolla Gerência',
    type: 'car',
    brand: 'Toyota',
    model: 'Corolla XEi',
    year: 2020,
    color: 'Cinza',
    battery: 98,
    plan: night('casaForte'),
  },
  {
    company: 'mother',
    plate: 'PDA0K11',
    name: 'Strada Vistoria',
    type: 'pickup',
    brand: 'Fiat',
    model: 'Strada Freedom',
    year: 2021,
    color: 'Branca',
    battery: 41,
    // Out of coverage: its last fix is an hour old.
    plan: { kind: 'silent', at: 'br232Moreno', minutesAgo: 62 },
  },
  // ── Transportes Norte: heavy trucks, a bus charter and a port yard ───────────────────
  {
    company: 'north',
    plate: 'KGH1L23',
    name: 'Caminhão Baú 01',
    type: 'truck',
    brand: 'Volkswagen',
    model: 'Delivery 11.180',
    year: 2020,
    color: 'Branca',
    battery: 87,
    driver: { name: 'Marcos Vinícius Araújo', rfid: '07A9C3E5F2', licenseCategory: 'D' },
    plan: drive(
      0.15,
      { to: 'agamenonNorth', kmh: 40 },
      { to: 'beberibe', kmh: 45 },
      { to: 'br101Norte', kmh: 65 },
      { to: 'paulista', kmh: 60, dwellS: 900, engineOff: true },
      { to: 'br101Norte', kmh: 62 },
      { to: 'derby', kmh: 45 },
    ),
  },
  {
    company: 'north',
    plate: 'KGH4M56',
    name: 'Caminhão Baú 02',
    type: 'truck',
    brand: 'Mercedes-Benz',
    model: 'Accelo 1016',
    year: 2019,
    color: 'Branca',
    battery: 76,
    driver: { name: 'José Roberto Silva', rfid: '02B7D9A4C6', licenseCategory: 'D' },
    plan: drive(
      0.6,
      { to: 'ceasa', kmh: 50, dwellS: 600, engineOff: true },
      { to: 'afogados', kmh: 55 },
      { to: 'boaViagemNorth', kmh: 42, dwellS: 420 },
      { to: 'imbiribeira', kmh: 40 },
    ),
  },
  {
    company: 'north',
    plate: 'KGI7N89',
    name: 'Cavalo Mecânico Scania',
    type: 'tractor_unit',
    brand: 'Scania',
    model: 'R 450',
    year: 2022,
    color: 'Vermelha',
    battery: 94,
    // The BR-232 at 100 km/h with a loaded trailer: speeding.
    driver: { name: 'Raimundo Nonato Lopes', rfid: '08B6D2F9C1', licenseCategory: 'E' },
    plan: drive(
      0.35,
      { to: 'br232Curado', kmh: 60 },
      { to: 'br232Moreno', kmh: 100 },
      { to: 'br232Curado', kmh: 98 },
      { to: 'ceasa', kmh: 45, dwellS: 480, engineOff: true },
    ),
  },
  {
    company: 'north',
    plate: 'KGI2P34',
    name: 'Caminhão-tanque Combustível',
    type: 'tank_truck',
    brand: 'Volvo',
    model: 'VM 270',
    year: 2018,
    color: 'Branca',
    battery: 69,
    driver: { name: 'Cícero Batista Santos', rfid: '09C8E4A2D6', licenseCategory: 'D' },
    plan: drive(
      0.8,
      { to: 'afogados', kmh: 45 },
      { to: 'jaboataoBr101', kmh: 72 },
      { to: 'prazeres', kmh: 55, dwellS: 900 },
      { to: 'airport', kmh: 60 },
      { to: 'afogados', kmh: 50 },
      { to: 'port', kmh: 40, dwellS: 600, engineOff: true },
    ),
  },
  {
    company: 'north',
    plate: 'KGJ5Q67',
    name: 'Frigorífico 01',
    type: 'refrigerated_truck',
    brand: 'Iveco',
    model: 'Tector 11-190',
    year: 2021,
    color: 'Branca',
    battery: 90,
    driver: { name: 'Antônio Marcos Ferreira', rfid: '03C1E5B8D2', licenseCategory: 'C' },
    plan: drive(
      0.25,
      { to: 'ceasa', kmh: 48, dwellS: 720 },
      { to: 'afogados', kmh: 52 },
      { to: 'shoppingRecife', kmh: 40, dwellS: 540 },
      { to: 'imbiribeira', kmh: 38 },
      { to: 'caxanga', kmh: 50 },
    ),
  },
  {
    company: 'north',
    plate: 'KGJ8R90',
    name: 'Basculante Obra Afogados',
    type: 'dump_truck',
    brand: 'Ford',
    model: 'Cargo 2429',
    year: 2017,
    color: 'Amarela',
    battery: 58,
    plan: drive(
      0.5,
      { to: 'siteNorthB', kmh: 18, dwellS: 300 },
      { to: 'siteNorth', kmh: 22, dwellS: 240, engineOff: true },
    ),
  },
  {
    company: 'north',
    plate: 'KGK3S12',
    name: 'Betoneira 02',
    type: 'concrete_mixer',
    brand: 'Mercedes-Benz',
    model: 'Atego 2426',
    year: 2019,
    color: 'Branca',
    battery: 81,
    // Unloading at the site: the drum turns, the engine runs.
    plan: idle('siteNorth'),
  },
  {
    company: 'north',
    plate: 'KGK6T45',
    name: 'Ônibus Fretado 01',
    type: 'bus',
    brand: 'Marcopolo',
    model: 'Torino',
    year: 2020,
    color: 'Azul',
    battery: 85,
    plan: drive(
      0.65,
      { to: 'boaVista', kmh: 32, dwellS: 60 },
      { to: 'boaViagemNorth', kmh: 38, dwellS: 60 },
      { to: 'shoppingRecife', kmh: 36, dwellS: 60 },
      { to: 'airport', kmh: 40, dwellS: 300 },
      { to: 'afogados', kmh: 42, dwellS: 60 },
      { to: 'derby', kmh: 34, dwellS: 60 },
    ),
  },
  {
    company: 'north',
    plate: 'KGL9U78',
    name: 'Micro-ônibus Turismo',
    type: 'minibus',
    brand: 'Volare',
    model: 'W9',
    year: 2022,
    color: 'Branca',
    battery: 77,
    plan: drive(
      0.9,
      { to: 'marcoZero', kmh: 30, dwellS: 600 },
      { to: 'olindaAv', kmh: 38 },
      { to: 'olindaCarmo', kmh: 28, dwellS: 900, engineOff: true },
      { to: 'recifeAntigo', kmh: 40 },
    ),
  },
  {
    company: 'north',
    plate: 'KGL2V01',
    name: 'Guincho Pesado',
    type: 'tow_truck',
    brand: 'Volkswagen',
    model: 'Constellation 17.190',
    year: 2016,
    color: 'Laranja',
    battery: 64,
    plan: night('afogados'),
  },
  {
    company: 'north',
    plate: 'KGM5W34',
    name: 'VUC Entregas 03',
    type: 'light_truck',
    brand: 'Hyundai',
    model: 'HR',
    year: 2021,
    color: 'Branca',
    battery: 83,
    plan: drive(
      0.4,
      { to: 'boaVista', kmh: 30, dwellS: 300, engineOff: true },
      { to: 'recifeAntigo', kmh: 28, dwellS: 240, engineOff: true },
      { to: 'derby', kmh: 33, dwellS: 300, engineOff: true },
    ),
  },
  {
    company: 'north',
    plate: 'KGM8X67',
    name: 'Caminhão Baú 04',
    type: 'truck',
    brand: 'Volkswagen',
    model: 'Delivery 9.170',
    year: 2018,
    color: 'Branca',
    battery: 99,
    plan: night('ceasa'),
    fuelTank: 300,
  },
  {
    company: 'north',
    plate: 'KGN1Y90',
    name: 'Coleta Seletiva Boa Vista',
    type: 'garbage_truck',
    brand: 'Ford',
    model: 'Cargo 1719',
    year: 2019,
    color: 'Verde',
    battery: 72,
    plan: drive(
      0.12,
      { to: 'derby', kmh: 14, dwellS: 90 },
      { to: 'encruzilhada', kmh: 16, dwellS: 90 },
      { to: 'boaVista', kmh: 15, dwellS: 90 },
    ),
  },
  {
    company: 'north',
    plate: 'KGN4Z23',
    name: 'Guindaste Portuário',
    type: 'crane',
    brand: 'Liebherr',
    model: 'LTM 1090',
    year: 2015,
    color: 'Amarela',
    battery: 88,
    plan: idle('port'),
  },
  {
    company: 'north',
    plate: 'KGO7A56',
    name: 'Empilhadeira Armazém CEASA',
    type: 'forklift',
    brand: 'Hyster',
    model: 'H50FT',
    year: 2020,
    color: 'Vermelha',
    battery: 53,
    plan: drive(
      0.3,
      { to: 'warehouseB', kmh: 9, dwellS: 45 },
      { to: 'warehouseA', kmh: 8, dwellS: 60 },
    ),
  },
  // ── Logística Sul: last-mile deliveries and the cane fields ──────────────────────────
  {
    company: 'south',
    plate: 'QYB2B89',
    name: 'Fiorino Entregas 01',
    type: 'van',
    brand: 'Fiat',
    model: 'Fiorino Endurance',
    year: 2023,
    color: 'Branca',
    battery: 95,
    driver: { name: 'Tiago Henrique Rocha', rfid: '0AD1F6B3E8', licenseCategory: 'B' },
    plan: drive(
      0.22,
      { to: 'boaViagemNorth', kmh: 36, dwellS: 240, engineOff: true },
      { to: 'shoppingRecife', kmh: 34, dwellS: 300, engineOff: true },
      { to: 'boaViagemSouth', kmh: 38, dwellS: 240, engineOff: true },
      { to: 'imbiribeira', kmh: 40 },
    ),
  },
  {
    company: 'south',
    plate: 'QYB5C12',
    name: 'Fiorino Entregas 02',
    type: 'van',
    brand: 'Fiat',
    model: 'Fiorino Endurance',
    year: 2023,
    color: 'Branca',
    battery: 62,
    plan: drive(
      0.77,
      { to: 'imbiribeira', kmh: 35, dwellS: 200, engineOff: true },
      { to: 'airport', kmh: 42, dwellS: 300 },
      { to: 'afogados', kmh: 40, dwellS: 240, engineOff: true },
    ),
  },
  {
    company: 'south',
    plate: 'QYC8D45',
    name: 'Moto Entregas 01',
    type: 'motorcycle',
    brand: 'Honda',
    model: 'CG 160 Fan',
    year: 2024,
    color: 'Preta',
    battery: 74,
    // 82 km/h on an avenue of 60: speeding.
    plan: drive(
      0.5,
      { to: 'shoppingRecife', kmh: 82, dwellS: 120 },
      { to: 'boaViagemNorth', kmh: 55, dwellS: 90 },
      { to: 'imbiribeira', kmh: 78 },
    ),
  },
  {
    company: 'south',
    plate: 'QYC1E78',
    name: 'Moto Entregas 02',
    type: 'motorcycle',
    brand: 'Yamaha',
    model: 'Factor 150',
    year: 2022,
    color: 'Azul',
    battery: 66,
    // Waiting for an order at the mall, engine running.
    plan: idle('shoppingRecife'),
  },
  {
    company: 'south',
    plate: 'QYD4F01',
    name: 'Scooter Entregas',
    type: 'scooter',
    brand: 'Honda',
    model: 'PCX 160',
    year: 2023,
    color: 'Branca',
    battery: 89,
    driver: { name: 'Fernanda Lima Carvalho', rfid: '0BE7A2C5D9', licenseCategory: 'C' },
    plan: drive(
      0.33,
      { to: 'boaViagemSouth', kmh: 32, dwellS: 150 },
      { to: 'boaViagemNorth', kmh: 34, dwellS: 150 },
    ),
  },
  {
    company: 'south',
    plate: 'QYD7G34',
    name: 'Bike Courier Centro',
    type: 'bicycle',
    brand: 'Caloi',
    model: 'Cargo',
    year: 2022,
    color: 'Laranja',
    battery: 48,
    plan: drive(
      0.6,
      { to: 'recifeAntigo', kmh: 15, dwellS: 180 },
      { to: 'boaVista', kmh: 14, dwellS: 120 },
      { to: 'marcoZero', kmh: 16 },
    ),
  },
  {
    company: 'south',
    plate: 'QYE0H67',
    name: 'Frigorífico Sul',
    type: 'refrigerated_truck',
    brand: 'Volkswagen',
    model: 'Delivery 11.180',
    year: 2022,
    color: 'Branca',
    battery: 92,
    driver: { name: 'Francisco das Chagas Souza', rfid: '04D3F7C9E1', licenseCategory: 'C' },
    plan: drive(
      0.05,
      { to: 'ceasa', kmh: 52, dwellS: 600 },
      { to: 'jaboataoBr101', kmh: 62 },
      { to: 'prazeres', kmh: 45, dwellS: 480, engineOff: true },
      { to: 'afogados', kmh: 58 },
    ),
  },
  {
    company: 'south',
    plate: 'QYE3J90',
    name: 'VUC Sul 01',
    type: 'light_truck',
    brand: 'Iveco',
    model: 'Daily 35-150',
    year: 2020,
    color: 'Branca',
    battery: 78,
    plan: drive(
      0.85,
      { to: 'afogados', kmh: 42 },
      { to: 'jaboataoBr101', kmh: 58, dwellS: 360, engineOff: true },
      { to: 'siteSouth', kmh: 45, dwellS: 300 },
    ),
  },
  {
    company: 'south',
    plate: 'QYF6K23',
    name: 'Saveiro Apoio',
    type: 'pickup',
    brand: 'Volkswagen',
    model: 'Saveiro Robust',
    year: 2021,
    color: 'Vermelha',
    battery: 97,
    plan: night('imbiribeira'),
  },
  {
    company: 'south',
    plate: 'QYF9L56',
    name: 'Logan Supervisão',
    type: 'car',
    brand: 'Renault',
    model: 'Logan Zen',
    year: 2020,
    color: 'Prata',
    battery: 86,
    plan: drive(
      0.18,
      { to: 'casaForte', kmh: 38, dwellS: 420, engineOff: true },
      { to: 'madalena', kmh: 40 },
      { to: 'ufpe', kmh: 45, dwellS: 300 },
      { to: 'caxanga', kmh: 50 },
    ),
  },
  {
    company: 'south',
    plate: 'QYG2M89',
    name: 'Trator Canavial',
    type: 'tractor',
    brand: 'John Deere',
    model: '6110J',
    year: 2018,
    color: 'Verde',
    battery: 70,
    plan: drive(
      0.4,
      { to: 'canaFieldB', kmh: 12 },
      { to: 'canaFieldC', kmh: 11, dwellS: 300 },
      { to: 'canaFieldA', kmh: 13 },
    ),
  },
  {
    company: 'south',
    plate: 'QYG5N12',
    name: 'Colheitadeira 01',
    type: 'harvester',
    brand: 'Case IH',
    model: 'A8810',
    year: 2021,
    color: 'Vermelha',
    battery: 82,
    plan: drive(0.7, { to: 'canaFieldC', kmh: 7 }, { to: 'canaFieldB', kmh: 6, dwellS: 240 }),
  },
  {
    company: 'south',
    plate: 'QYH8P45',
    name: 'Escavadeira Obra Sul',
    type: 'excavator',
    brand: 'Caterpillar',
    model: '320',
    year: 2019,
    color: 'Amarela',
    battery: 75,
    plan: idle('siteSouth'),
  },
  {
    company: 'south',
    plate: 'QYH1Q78',
    name: 'Caminhão Baú Sul 05',
    type: 'truck',
    brand: 'Mercedes-Benz',
    model: 'Atego 1719',
    year: 2021,
    color: 'Branca',
    battery: 90,
    // 105 km/h on the BR-101 with a truck: speeding. Its engine comes back on about 50 s
    // after the simulator starts: the demo's IGNITION_ON alert within the first minute.
    plan: drive(
      0.97,
      { to: 'imbiribeira', kmh: 45 },
      { to: 'jaboataoBr101', kmh: 105 },
      { to: 'afogados', kmh: 96 },
      { to: 'ceasa', kmh: 50, dwellS: 540, engineOff: true },
    ),
  },
  {
    company: 'south',
    plate: 'QYI4R01',
    name: 'Moto Entregas 03',
    type: 'motorcycle',
    brand: 'Honda',
    model: 'Biz 125',
    year: 2020,
    color: 'Branca',
    battery: 59,
    plan: night('boaViagemSouth'),
  },
];

export type DemoProtocol = 'osmand' | 'wialon_ips' | 'gt06' | 'suntech' | 'teltonika' | 'queclink';

/**
 * The makers' devices of the demo, one of each family, in slots 35 to 38: known by their IMEI
 * (these protocols carry no name nor password), so that a newcomer sees every protocol live.
 */
export const NATIVE_DEMO: Partial<
  Record<
    number,
    { protocol: DemoProtocol /** Its IMEI, or the serial it names itself by. */; imei: string }
  >
> = {
  34: { protocol: 'gt06', imei: '358899050000358' },
  // An ST300 names itself by its serial (the last nine digits of its IMEI).
  35: { protocol: 'suntech', imei: '080000363' },
  36: { protocol: 'teltonika', imei: '352093170000375' },
  37: { protocol: 'queclink', imei: '862451040000384' },
};

/** The others alternate: OsmAnd for demo-001, 003…, Wialon IPS for demo-002, 004…. */
export const DEMO_FLEET: DemoVehicle[] = ROWS.map((row, i) => ({
  identifier: NATIVE_DEMO[i]?.imei ?? `demo-${String(i + 1).padStart(3, '0')}`,
  protocol: NATIVE_DEMO[i]?.protocol ?? (i % 2 === 0 ? 'osmand' : 'wialon_ips'),
  ...row,
}));

/** Where each place is, by name. */
export function place(name: PlaceName): Place {
  return PLACES[name];
}

/** The two vehicles the demo Terceiro sees, and the one the demo's temporary link shares. */
export const VISITOR_VEHICLES = ['KGH1L23', 'KGK6T45'];
export const SHARED_VEHICLES = ['KGJ5Q67'];

/**
 * The device password of a demo tracker (`demo-001` → `rastro-demo-001`): the seed stores it,
 * the simulator sends it, as a real installer and device would. Demo only, like the demo's
 * accounts.
 */
export const demoDevicePassword = (identifier: string) => `rastro-${identifier}`;

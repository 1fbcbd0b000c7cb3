/**
 * The vehicle and asset types Rastro knows, each with its pt-BR label and its marker icon
 * (public/markers/{id}.svg). 'default' is the marker of anything else.
 */
export const VEHICLE_TYPES = [
  ['car', 'Carro'],
  ['pickup', 'Caminhonete'],
  ['suv', 'Utilitário esportivo (SUV)'],
  ['van', 'Van'],
  ['minibus', 'Micro-ônibus'],
  ['bus', 'Ônibus'],
  ['truck', 'Caminhão'],
  ['light_truck', 'Caminhão leve (VUC)'],
  ['tractor_unit', 'Cavalo mecânico'],
  ['semi_trailer', 'Semirreboque'],
  ['trailer', 'Reboque'],
  ['tank_truck', 'Caminhão-tanque'],
  ['refrigerated_truck', 'Caminhão frigorífico'],
  ['dump_truck', 'Caminhão basculante'],
  ['concrete_mixer', 'Betoneira'],
  ['tow_truck', 'Guincho'],
  ['garbage_truck', 'Caminhão de lixo'],
  ['fire_truck', 'Caminhão de bombeiros'],
  ['ambulance', 'Ambulância'],
  ['police_car', 'Viatura'],
  ['taxi', 'Táxi'],
  ['motorcycle', 'Moto'],
  ['scooter', 'Scooter'],
  ['bicycle', 'Bicicleta'],
  ['quad', 'Quadriciclo'],
  ['tractor', 'Trator'],
  ['harvester', 'Colheitadeira'],
  ['sprayer', 'Pulverizador'],
  ['excavator', 'Escavadeira'],
  ['backhoe', 'Retroescavadeira'],
  ['bulldozer', 'Trator de esteira'],
  ['loader', 'Pá carregadeira'],
  ['grader', 'Motoniveladora'],
  ['roller', 'Rolo compactador'],
  ['crane', 'Guindaste'],
  ['forklift', 'Empilhadeira'],
  ['telehandler', 'Manipulador telescópico'],
  ['generator', 'Gerador'],
  ['container', 'Contêiner'],
  ['boat', 'Barco'],
  ['jet_ski', 'Jet ski'],
  ['ship', 'Navio'],
  ['helicopter', 'Helicóptero'],
  ['airplane', 'Avião'],
  ['drone', 'Drone'],
  ['train', 'Trem'],
  ['motorhome', 'Motorhome'],
  ['person', 'Pessoa'],
  ['animal', 'Animal'],
  ['asset', 'Ativo / equipamento'],
  ['default', 'Outro'],
] as const satisfies readonly (readonly [string, string])[];

export type VehicleTypeId = (typeof VEHICLE_TYPES)[number][0];
export const VEHICLE_TYPE_IDS = VEHICLE_TYPES.map(([id]) => id) as VehicleTypeId[];
export const VEHICLE_TYPE_LABELS = Object.fromEntries(VEHICLE_TYPES) as Record<
  VehicleTypeId,
  string
>;

export function markerIcon(type: string): string {
  return `/markers/${(VEHICLE_TYPE_IDS as string[]).includes(type) ? type : 'default'}.svg`;
}

/** SPEC §9: a vehicle search by customer brings up to 546; "all vehicles of a customer" up
 * to 10000. */
export const VEHICLE_SEARCH_BY_CLIENT = 546;
/** SPEC §9: a vehicle search's options come 10 at a time (the picker asks the server). */
export const VEHICLE_SEARCH_PAGE = 10;
export const ALL_VEHICLES_BY_CLIENT = 10_000;

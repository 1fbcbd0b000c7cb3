/**
 * The demo's alert rules and geofences, placed so that they fire within a minute of
 * `npm start`: the simulator drives every vehicle along a fixed timeline from its start
 * (server/demo/simulator.ts), so where a truck will be 10 or 50 seconds in is known here.
 *
 * - A depot (ALWAYS_INSIDE) around where Caminhão Baú 02 is at the first fix: it leaves
 *   about 20 s later (GEOFENCE_EXIT).
 * - A risk area (ALWAYS_OUTSIDE) on the road ahead of the Caminhão-tanque: it drives into it
 *   about 40 s in (GEOFENCE_ENTER).
 * - Overspeed at 80 km/h (the SUV, the tractor unit and the trucks on the BR-101/BR-232),
 *   ignition on and off (a van stops at ~50 s, a truck starts at ~50 s), no position for 30
 *   minutes (the Strada out of coverage), each for every vehicle of the demo.
 */
import type { Geometry } from '../../src/contract';
import { DEMO_FLEET } from './fleet';
import { demoDevices, stepOf } from './simulator';

/** Where a demo vehicle is `tick` sends after the simulator starts ([longitude, latitude]). */
function positionAt(plate: string, tick: number, intervalMs: number): [number, number] {
  const index = DEMO_FLEET.findIndex((v) => v.plate === plate);
  const device = demoDevices()[index];
  if (!device) throw new Error(`demo vehicle ${plate} missing`);
  const step = stepOf(device, (tick * intervalMs) / 1000);
  return [Math.round(step.longitude * 1e6) / 1e6, Math.round(step.latitude * 1e6) / 1e6];
}

export const DEPOT_PLATE = 'KGH4M56';
export const RISK_PLATE = 'KGI2P34';

export function demoGeofences(intervalMs: number) {
  const depot: Geometry = {
    type: 'Circle',
    center: positionAt(DEPOT_PLATE, 1, intervalMs),
    radius: 150,
  };
  const risk: Geometry = {
    type: 'Circle',
    center: positionAt(RISK_PLATE, 5, intervalMs),
    radius: 120,
  };
  return [
    {
      name: 'Garagem Transportes Norte',
      description: 'Pátio dos caminhões: sair dele gera alerta.',
      color: '#0B5CAD',
      speedLimit: 20,
      geometry: depot,
      vehicle: DEPOT_PLATE,
      restrictionType: 'ALWAYS_INSIDE' as const,
    },
    {
      name: 'Área de risco — BR-101 Sul',
      description: 'Trecho com registro de roubo de carga: entrar nele gera alerta.',
      color: '#FF0000',
      speedLimit: null,
      geometry: risk,
      vehicle: RISK_PLATE,
      restrictionType: 'ALWAYS_OUTSIDE' as const,
    },
  ];
}

export const DEMO_RULES = [
  {
    company: 'mother' as const,
    name: 'Excesso de velocidade (80 km/h)',
    type: 'OVERSPEED',
    params: { speedLimit: 80, tolerancePercent: 0, minDurationSeconds: 0 },
    emailDelivery: 'central@rastro.demo',
  },
  { company: 'mother' as const, name: 'Ignição ligada', type: 'IGNITION_ON', params: {} },
  { company: 'mother' as const, name: 'Ignição desligada', type: 'IGNITION_OFF', params: {} },
  {
    company: 'mother' as const,
    name: 'Sem posição há 30 minutos',
    type: 'LOCATION_TIMEOUT',
    params: { minutes: 30 },
  },
  {
    company: 'north' as const,
    name: 'Saída da garagem',
    type: 'GEOFENCE_EXIT',
    params: { geofenceIds: [] },
    emailDelivery: 'central@rastro.demo',
  },
  {
    company: 'north' as const,
    name: 'Entrada em área de risco',
    type: 'GEOFENCE_ENTER',
    params: { geofenceIds: [] },
  },
  // The truck parked at CEASA with a fuel sensor loses 45 L in the night (server/demo/simulator.ts).
  {
    company: 'north' as const,
    name: 'Furto de combustível',
    type: 'FUEL_DROP',
    params: { minDropLiters: 20, minDropPercent: 10 },
    emailDelivery: 'central@rastro.demo',
  },
];

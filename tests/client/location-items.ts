/** A location item of vehicle `n` (customer 'c1', a truck moving at 10 km/h), for client tests. */
import type { LocationItem } from '../../src/contract';

export function locationItem(n: number, fields: Partial<LocationItem> = {}): LocationItem {
  return {
    id: `v${n}`,
    type: 'vehicle',
    name: `Veículo ${n}`,
    plate: `ABC${String(n).padStart(4, '0')}`,
    vehicleType: 'truck',
    trackerId: `t${n}`,
    clientId: 'c1',
    latitude: -8,
    longitude: -35,
    speed: 10,
    course: 90,
    ignition: true,
    battery: null,
    driver: null,
    fixTime: '2026-01-01T12:00:00.000Z',
    receivedAt: '2026-01-01T12:00:01.000Z',
    eventId: String(n + 1),
    ...fields,
  };
}

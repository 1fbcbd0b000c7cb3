/**
 * A driver whose CNH has expired is shown as such where the tracker identifies them: on the
 * map's popup (lastLocation, in both its forms) and on the trips they drove after the expiry.
 * A driver with a valid CNH carries no mark.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  CompactLocationsSchema,
  type Driver,
  expandLocations,
  type LocationItem,
  type TripsReport,
} from '../../src/contract';
import { reportDay } from '../../src/lib/report-period';
import { as, backends, demoClients, useServer } from './harness';
import { ingest, vehicleWithTracker } from './report-fixtures';
import { Track } from './tracks';

const DAY = 86_400_000;

describe.each(await backends())('expired CNH on %s', (backend) => {
  const server = useServer(backend);

  it('marks the driver on the map and on the trips driven after the expiry', async () => {
    const s = server();
    const { north } = await demoClients(s);
    const manager = await as(s, 'gestor.norte@rastro.demo');
    const driver = async (name: string, cpf: string, rfidCode: string, licenseExpiry: string) => {
      const made = await manager.call<Driver>('POST', '/registros/driver', {
        clientId: north,
        completName: name,
        cpf,
        rfidCode,
        licenseNumber: '02650306461',
        licenseCategory: 'E',
        licenseExpiry,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    };
    // Expired three days ago, and valid for a year.
    await driver('Cláudio Vencido', '529.982.247-25', 'C0FFEE01', reportDay(Date.now() - 3 * DAY));
    await driver('Vera Válida', '111.444.777-35', 'C0FFEE02', reportDay(Date.now() + 365 * DAY));

    // Two trucks: one driven yesterday and today by the expired driver, one by the valid one.
    const expiredTruck = await vehicleWithTracker(s, north);
    const validTruck = await vehicleWithTracker(s, north);
    const start = Date.now() - 2 * 3_600_000;
    const drive = (rfid: string) =>
      new Track(new Date(start))
        .drive(20 * 60, 60, 90, { every: 30, ignition: true, driverRfid: rfid })
        .park(30 * 60, { every: 60, ignition: false })
        .drive(20 * 60, 60, 180, { every: 30, ignition: true, driverRfid: rfid });
    await ingest(s.deps, expiredTruck.identifier, drive('C0FFEE01').fixes);
    await ingest(s.deps, validTruck.identifier, drive('C0FFEE02').fixes);

    const map = await manager.call<LocationItem[]>(
      'GET',
      `/registros/real-time/lastLocation?clientId=${north}`,
    );
    const onMap = (id: string) => map.body.find((item) => item.id === id);
    expect(onMap(expiredTruck.vehicleId)).toMatchObject({
      driver: 'Cláudio Vencido',
      driverLicenseExpired: true,
    });
    expect(onMap(validTruck.vehicleId)?.driver).toBe('Vera Válida');
    expect(onMap(validTruck.vehicleId)).not.toHaveProperty('driverLicenseExpired');

    // The PWA's compact read says the same.
    const compact = await manager.call<unknown>(
      'GET',
      `/registros/real-time/lastLocation?clientId=${north}&format=compact`,
    );
    const expanded = expandLocations(v.parse(CompactLocationsSchema, compact.body));
    expect(expanded.find((item) => item.id === expiredTruck.vehicleId)?.driverLicenseExpired).toBe(
      true,
    );
    expect(expanded.find((item) => item.id === validTruck.vehicleId)).not.toHaveProperty(
      'driverLicenseExpired',
    );

    const period = `beginAt=${new Date(start - 60_000).toISOString()}&endAt=${new Date().toISOString()}`;
    const trips = (id: string) =>
      manager.call<TripsReport>('GET', `/registros/reports/trips/${id}?${period}`);
    const expiredTrips = (await trips(expiredTruck.vehicleId)).body.trips;
    expect(expiredTrips).toHaveLength(2);
    expect(expiredTrips.every((t) => t.driverLicenseExpired === true)).toBe(true);
    const validTrips = (await trips(validTruck.vehicleId)).body.trips;
    expect(validTrips).toHaveLength(2);
    expect(validTrips.some((t) => 'driverLicenseExpired' in t)).toBe(false);
  });
});

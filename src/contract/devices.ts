/**
 * Devices as an installer meets them: where a tracker sends (the connection settings shown in
 * its form) and the identifiers that tried to connect without matching a tracker (the
 * administrator's list, from which a tracker is created in one step).
 */
import * as v from 'valibot';
import { queryInt, SearchSchema } from './common';
import * as o from './objects';

/** Where each protocol's devices send: the host, and the port of each listener that is on. */
export const DeviceSettingsSchema = o.object({
  host: v.string(),
  ports: o.object({
    osmand: v.nullable(v.number()),
    wialon_ips: v.nullable(v.number()),
    gt06: v.nullable(v.number()),
    suntech: v.nullable(v.number()),
    teltonika: v.nullable(v.number()),
    queclink: v.nullable(v.number()),
  }),
  /** The flespi stream's address (it needs FLESPI_STREAM_SECRET on the server). */
  flespiStreamUrl: v.nullable(v.string()),
  /** Whether every device must give its password (DEVICE_AUTH=required). */
  passwordRequired: v.boolean(),
});
export type DeviceSettings = v.InferOutput<typeof DeviceSettingsSchema>;

export const UnknownDeviceSchema = o.object({
  identifier: v.string(),
  protocol: v.string(),
  lastAddress: v.nullable(v.string()),
  firstSeenAt: v.string(),
  lastSeenAt: v.string(),
  attempts: v.number(),
});
export type UnknownDevice = v.InferOutput<typeof UnknownDeviceSchema>;

export const UnknownDeviceQuerySchema = o.strictObject({
  search: SearchSchema,
  page: queryInt(1, 1, 100_000),
  limit: queryInt(10, 1, 100),
});

export const UnknownDevicePageSchema = o.object({
  unknownDevices: v.array(UnknownDeviceSchema),
  page: v.number(),
  limit: v.number(),
  total: v.number(),
});
export type UnknownDevicePage = v.InferOutput<typeof UnknownDevicePageSchema>;

export const UnknownDeviceParamSchema = o.object({
  protocol: v.pipe(v.string(), v.maxLength(20)),
  identifier: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
});

/**
 * Starts the listener of every makers' protocol that has a port, on the server and in the
 * tests alike, so that both run the listeners the same way.
 */
import type { Deps } from '../../deps';
import type { Config } from '../../platform/config';
import { CODECS, type NativeProtocol, SPEAKS_UDP } from './codecs';
import { type NativeListener, startNative } from './listener';

export async function startNativeListeners(
  config: Pick<Config, 'nativePorts' | 'devices' | 'wialon'>,
  deps: Pick<Deps, 'devices' | 'pipeline' | 'downlink' | 'log'>,
  host: string,
): Promise<[NativeProtocol, NativeListener][]> {
  const started: [NativeProtocol, NativeListener][] = [];
  try {
    for (const [protocol, port] of Object.entries(config.nativePorts) as [
      NativeProtocol,
      number | null,
    ][]) {
      if (port === null) continue;
      const listener = await startNative({
        codec: CODECS[protocol],
        port,
        host,
        udp: SPEAKS_UDP[protocol],
        loginTimeoutMs: config.wialon.loginTimeoutMs,
        auth: config.devices.auth,
        status: deps.devices,
        pipeline: deps.pipeline,
        downlink: deps.downlink,
        log: deps.log,
      });
      started.push([protocol, listener]);
    }
  } catch (err) {
    // A port taken: the ones already listening are closed, not left behind.
    await Promise.all(started.map(([, listener]) => listener.close()));
    throw err;
  }
  return started;
}

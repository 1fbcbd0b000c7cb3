/**
 * Wialon IPS over UDP, on the TCP listener's port number. A datagram names its device in front
 * of the packet, `imei#SD#…` (1.1) or `2.0;imei#D#…;crc` (2.0), and there is no login: no
 * password travels, so only trackers let in without one ("Aceitar sem senha", or
 * DEVICE_AUTH=optional) are heard this way, and none takes commands over it (Gurtam: UDP
 * carries data from the device only).
 *
 * Each packet is answered to the address it came from, as over TCP, once its fixes are
 * committed (Traccar does the same; devices that ignore answers lose nothing). One that cannot
 * be stored (the database away) gets no answer: the device sends it again. At most
 * MAX_IN_FLIGHT datagrams are worked on at once; more are dropped and counted, never queued
 * without bound.
 */
import { createSocket, type Socket } from 'node:dgram';
import { checkIdentifier } from '../bounds';
import { BadMessages, type WialonOptions, WialonSession } from './session';

export const MAX_IN_FLIGHT = 5_000;

export interface WialonUdpListener {
  port: number;
  close(): Promise<void>;
  stats(): { received: number; dropped: number; inFlight: number };
}

/** The device, version and packet of a datagram line; undefined when it names none. */
export function splitDatagram(
  line: string,
): { identifier: string; version: '1.1' | '2.0'; packet: string } | undefined {
  const match = /^(?:(\d\.\d);)?([^#;]+)(#[A-Z]+#.*)$/s.exec(line);
  if (!match?.[2] || !match[3]) return undefined;
  const identifier = match[2];
  if (checkIdentifier(identifier)) return undefined;
  return { identifier, version: match[1] === '2.0' ? '2.0' : '1.1', packet: match[3] };
}

export function startWialonUdp(
  options: WialonOptions & { port: number; host: string },
): Promise<WialonUdpListener> {
  const socket: Socket = createSocket(options.host.includes(':') ? 'udp6' : 'udp4');
  const bad = new BadMessages();
  let received = 0;
  let dropped = 0;
  let inFlight = 0;

  async function answer(text: string, address: string, port: number) {
    for (const line of text.split(/\r?\n/)) {
      if (line === '') continue;
      const datagram = splitDatagram(line);
      if (!datagram) {
        options.log.debug('wialon udp: not a packet', { line: line.slice(0, 80) });
        continue;
      }
      // UDP has no login: a login line here is no packet of this transport.
      if (datagram.packet.startsWith('#L#')) continue;
      const session = new WialonSession(options, undefined, address, bad);
      session.datagram(datagram.identifier, datagram.version);
      const reply = await session.handle(datagram.packet);
      if (reply !== undefined) socket.send(`${reply}\r\n`, port, address);
    }
  }

  socket.on('message', (message, remote) => {
    received += 1;
    if (inFlight >= MAX_IN_FLIGHT) {
      dropped += 1;
      return;
    }
    inFlight += 1;
    answer(message.toString('latin1'), remote.address, remote.port)
      .catch((err: unknown) =>
        // Not answered: the device sends the datagram again.
        options.log.warn('wialon udp: not stored, not answered', { err }),
      )
      .finally(() => {
        inFlight -= 1;
      });
  });
  socket.on('error', (err) => options.log.warn('wialon udp: socket error', { err }));

  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.port, options.host, () => {
      socket.off('error', reject);
      const port = socket.address().port;
      options.log.info('Wialon IPS (UDP) listening', { port });
      resolve({
        port,
        close: () => new Promise<void>((done) => socket.close(() => done())),
        stats: () => ({ received, dropped, inFlight }),
      });
    });
  });
}

/**
 * Commands to our own trackers over their open Wialon IPS connection (the downlink).
 *
 * The database holds every command; this module only moves it along. A block is output 1 on,
 * an unblock output 1 off: the line `L1=1` / `L1=0` that Traccar's Wialon encoder sends
 * (output control). The process that holds a device's connection sends its pending commands:
 * when the device logs in, at once when the command was created in this same process, and on
 * a short poll for commands created elsewhere (several processes may share one database;
 * `claimPending` lets only one of them take each command). A sent command is confirmed when
 * the device's next fixes show the output in the state asked for — a live packet, or a black
 * box fix not from before it was sent (CONFIRM_CLOCK_TOLERANCE_MS allows for the device's
 * clock), since an older one shows the output as an older command left it — and fails when
 * they do not
 * within the confirmation timeout; a pending one expires when the device does not connect in
 * time. Both timeouts are configurable (COMMAND_CONFIRM_TIMEOUT_SECONDS, COMMAND_EXPIRY_SECONDS).
 */
import type { Config } from '../config';
import type { Db } from '../db/client';
import {
  awaitingConfirmation,
  claimPending,
  closeOverdue,
  confirmCommands,
  unclaim,
} from '../db/commands';
import type { Logger } from '../log';

/** Output control lines of each command kind a Wialon IPS tracker can take. */
export const WIALON_LINES: Partial<Record<string, string>> = {
  block: 'L1=1',
  unblock: 'L1=0',
};

export const DETAILS = {
  waiting: 'Aguardando a conexão do rastreador para enviar.',
  sent: 'Enviado ao rastreador; aguardando a confirmação pelas saídas.',
  confirmed: 'Confirmado pelo rastreador (estado das saídas).',
  lostBeforeSend: 'O rastreador desconectou antes do envio; aguardando nova conexão.',
};

export function overdueDetails(config: Config['commands']) {
  const hours = Math.round(config.expiryMs / 3_600_000);
  const window =
    config.expiryMs >= 3_600_000
      ? `${hours} ${hours === 1 ? 'hora' : 'horas'}`
      : `${Math.round(config.expiryMs / 60_000)} min`;
  return {
    expired: `Expirou: o rastreador não se conectou em ${window}. Envie de novo se ainda for preciso.`,
    unconfirmed: `Sem confirmação do rastreador em ${Math.round(config.confirmTimeoutMs / 1000)} s.`,
  };
}

/**
 * How much older than the command a black box fix may be and still confirm it: a fix is
 * stamped when it was taken, and a tracker's clock may be a little behind. An archived fix
 * older than this (a black box uploaded after the login that sent the command) shows the
 * outputs as they were before it, and confirms nothing. Live packets are not held to it.
 */
export const CONFIRM_CLOCK_TOLERANCE_MS = 120_000;

/** Whether the outputs bit field shows what a line asked for (`L{n}={0|1}`). */
export function outputsShow(payload: string, outputs: number): boolean {
  const match = /^L(\d+)=([01])$/.exec(payload);
  if (!match) return false;
  const bit = Number(match[1]) - 1;
  return bit >= 0 && bit < 31 && ((outputs >> bit) & 1) === Number(match[2]);
}

/** A device connection of this process: writes one line, false when it cannot. */
export type Link = (line: string) => boolean;

export interface Downlink {
  /** A device logged in here: sends its pending commands; returns the detach function. */
  connected(trackerId: string, link: Link): () => void;
  /** A command was stored for this tracker in this process: send now if connected here. */
  created(trackerId: string): Promise<void>;
  /**
   * The outputs a connected device reported: confirms the sent commands they show done. With
   * `archivedAt` (a black box fix's time), not those sent after it (CONFIRM_CLOCK_TOLERANCE_MS).
   */
  observed(trackerId: string, outputs: number, archivedAt?: Date): Promise<void>;
  /** Closes overdue commands and sends those created by other processes. */
  sweep(): Promise<void>;
  /** Runs `sweep` every COMMAND_POLL_SECONDS; returns the stop function. */
  start(): () => void;
}

/** A command the device confirmed (LOCK_ACTIVATED is raised for a block). */
export interface ConfirmedCommand {
  id: string;
  vehicleId: string | null;
  kind: string;
}

export function createDownlink(
  db: Db,
  config: Config['commands'],
  log: Logger,
  onConfirmed?: (commands: ConfirmedCommand[]) => Promise<void>,
): Downlink {
  const links = new Map<string, Link>();
  /** Trackers with a sent command waiting, so that fixes of the others cost nothing. */
  const awaiting = new Set<string>();
  const details = overdueDetails(config);

  async function deliver(trackerIds: string[]) {
    const here = trackerIds.filter((id) => links.has(id));
    if (here.length === 0) return;
    for (const command of await claimPending(db, here, DETAILS.sent)) {
      const link = links.get(command.trackerId);
      if (!link?.(`${command.payload}\r\n`)) {
        await unclaim(db, command.id, DETAILS.lostBeforeSend);
        continue;
      }
      awaiting.add(command.trackerId);
      log.info('command sent to device', { id: command.id, trackerId: command.trackerId });
    }
  }

  const safely = (what: string, work: Promise<void>) =>
    work.catch((err: unknown) => log.error(`downlink: ${what} failed`, { err }));

  const downlink: Downlink = {
    connected(trackerId, link) {
      links.set(trackerId, link);
      void safely('delivery at login', deliver([trackerId]));
      return () => {
        if (links.get(trackerId) === link) links.delete(trackerId);
      };
    },
    created: (trackerId) => deliver([trackerId]),
    async observed(trackerId, outputs, archivedAt) {
      if (!awaiting.has(trackerId)) return;
      const waiting = await awaitingConfirmation(db, trackerId);
      if (waiting.length === 0) awaiting.delete(trackerId);
      const done = waiting.filter(
        (c) =>
          c.payload &&
          outputsShow(c.payload, outputs) &&
          (!archivedAt ||
            !c.sentAt ||
            archivedAt.getTime() >= c.sentAt.getTime() - CONFIRM_CLOCK_TOLERANCE_MS),
      );
      const confirmed = await confirmCommands(
        db,
        done.map((c) => c.id),
        DETAILS.confirmed,
      );
      if (confirmed.length && onConfirmed)
        await onConfirmed(confirmed).catch((err: unknown) =>
          log.error('downlink: confirmation listener failed', { err }),
        );
      if (done.length === waiting.length) awaiting.delete(trackerId);
    },
    async sweep() {
      const closed = await closeOverdue(db, config.confirmTimeoutMs, details);
      if (closed.expired || closed.failed) log.info('commands closed as overdue', closed);
      await deliver([...links.keys()]);
    },
    start() {
      const timer = setInterval(() => void safely('sweep', downlink.sweep()), config.pollMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
  return downlink;
}

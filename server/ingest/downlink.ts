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
 *
 * Only the real device takes commands. A command goes out only through a link that proved the
 * device's password, and only while it is the tracker's one live session here; its confirmation
 * counts only from that link. A second login of the same tracker never takes the link over:
 * - from the same address, it is the device reconnecting: the old session is closed;
 * - while the old session has been silent for DEVICE_SESSION_LIVE_SECONDS, the old one is taken
 *   for dead (a device whose carrier gave it a new address) and closed;
 * - otherwise the two are contested and commands wait. When both speak after the second
 *   login, two devices claim the tracker: `onDuplicate` is told (an alert, the tracker's page),
 *   and commands wait until one of them closes or falls silent.
 */
import {
  awaitingConfirmation,
  claimPending,
  closeOverdue,
  confirmCommands,
  failCommands,
  unclaim,
} from '../commands/queries';
import type { Config } from '../platform/config';
import type { Db } from '../platform/db/client';
import type { Logger } from '../platform/log';
import type { CommandAnswer } from './native/codec';

/** Output control lines of each command kind a Wialon IPS tracker can take. */
export const WIALON_LINES: Partial<Record<string, string>> = {
  block: 'L1=1',
  unblock: 'L1=0',
};

export const DETAILS = {
  waiting: 'Aguardando a conexão do rastreador para enviar.',
  sent: 'Enviado ao rastreador; aguardando a confirmação pelas saídas.',
  confirmed: 'Confirmado pelo rastreador (estado das saídas).',
  answered: (text: string) => `Confirmado pelo rastreador: ${text}`,
  refusedByDevice: (text: string) => `Recusado pelo rastreador: ${text}`,
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

/** A logged-in device connection of this process. */
export interface DeviceLink {
  /**
   * Writes one command's stored payload as the device's protocol carries it (a Wialon IPS
   * line, a GT06 packet…); false when it cannot.
   */
  send(payload: string): boolean;
  /** The peer's address: two sessions from one address are one device reconnecting. */
  address: string;
  /** Whether the login proved the device's password: commands go only through such links. */
  authenticated: boolean;
  /** Ends the session (another session of the same device replaced it). */
  close(): void;
}

/** A link as the downlink holds it: tell it when the device speaks, and when it is gone. */
export interface LinkHandle {
  heard(): void;
  detach(): void;
}

export interface Downlink {
  /** A device logged in here: sends its pending commands when the link may take them. */
  connected(trackerId: string, link: DeviceLink): LinkHandle;
  /** A command was stored for this tracker in this process: send now if connected here. */
  created(trackerId: string): Promise<void>;
  /**
   * The outputs a connected device reported: confirms the sent commands they show done. With
   * `archivedAt` (a black box fix's time), not those sent after it (CONFIRM_CLOCK_TOLERANCE_MS).
   * From `via` only when it is the link commands go through.
   */
  observed(trackerId: string, outputs: number, archivedAt?: Date, via?: DeviceLink): Promise<void>;
  /**
   * The device answered a command (the makers' protocols): the oldest command sent to it and
   * waiting is confirmed, or failed with the device's words. From `via` only when it is the
   * link commands go through.
   */
  answered(trackerId: string, via: DeviceLink, answer: CommandAnswer): Promise<void>;
  /** Whether this tracker has a link here that would take a command now. */
  reachable(trackerId: string): boolean;
  /** Closes overdue commands and sends those created by other processes. */
  sweep(): Promise<void>;
}

/** A command the device confirmed (LOCK_ACTIVATED is raised for a block). */
export interface ConfirmedCommand {
  id: string;
  vehicleId: string | null;
  kind: string;
}

/** Two live sessions of one tracker (see the file's comment), or none any more (null). */
export type DuplicateListener = (
  trackerId: string,
  state: { since: Date; addresses: string[] } | null,
) => void;

interface Session {
  link: DeviceLink;
  since: number;
  heardAt: number;
}

export function createDownlink(
  db: Db,
  config: Config['commands'] & { sessionLiveMs?: number },
  log: Logger,
  onConfirmed?: (commands: ConfirmedCommand[]) => Promise<void>,
  onDuplicate?: DuplicateListener,
): Downlink {
  const liveMs = config.sessionLiveMs ?? 120_000;
  /** Each tracker's logged-in sessions in this process, oldest first. */
  const sessions = new Map<string, Session[]>();
  /** Trackers two live devices speak for, since when. */
  const duplicates = new Map<string, number>();
  /** Trackers with a sent command waiting, so that fixes of the others cost nothing. */
  const awaiting = new Set<string>();
  const details = overdueDetails(config);

  /** The link a command may go through now: the one live, authenticated session. */
  function commandLink(trackerId: string): DeviceLink | undefined {
    const only = sessions.get(trackerId);
    const session = only?.length === 1 ? only[0] : undefined;
    return session?.link.authenticated ? session.link : undefined;
  }

  async function deliver(trackerIds: string[]) {
    const here = trackerIds.filter((id) => commandLink(id));
    if (here.length === 0) return;
    for (const command of await claimPending(db, here, DETAILS.sent)) {
      const link = commandLink(command.trackerId);
      if (!link?.send(command.payload)) {
        await unclaim(db, command.id, DETAILS.lostBeforeSend);
        continue;
      }
      awaiting.add(command.trackerId);
      log.info('command sent to device', { id: command.id, trackerId: command.trackerId });
    }
  }

  const safely = (what: string, work: Promise<void>) =>
    work.catch((err: unknown) => log.error(`downlink: ${what} failed`, { err }));

  /** Sets the sessions of a tracker; back to one, the duplicate is over and commands go. */
  function settle(trackerId: string, list: Session[]) {
    if (list.length === 0) sessions.delete(trackerId);
    else sessions.set(trackerId, list);
    if (list.length > 1) return;
    if (duplicates.delete(trackerId)) onDuplicate?.(trackerId, null);
    if (list.length === 1) void safely('delivery', deliver([trackerId]));
  }

  /** Closes the sessions silent for longer than `liveMs` while another speaks. */
  function dropSilent(trackerId: string, now: number) {
    const list = sessions.get(trackerId);
    if (!list || list.length < 2) return;
    const live = list.filter((s) => now - s.heardAt <= liveMs);
    if (live.length === list.length) return;
    // All silent: the one heard last stays (nobody spoke since to contest it).
    const kept = live.length ? live : [list.reduce((a, b) => (b.heardAt > a.heardAt ? b : a))];
    for (const s of list)
      if (!kept.includes(s)) {
        log.info('device session silent while another spoke, closed', {
          trackerId,
          address: s.link.address,
        });
        s.link.close();
      }
    settle(trackerId, kept);
  }

  /** Two sessions both heard after the newer one logged in: two devices claim the tracker. */
  function checkDuplicate(trackerId: string, now: number) {
    const list = sessions.get(trackerId);
    if (!list || list.length < 2 || duplicates.has(trackerId)) return;
    const newest = Math.max(...list.map((s) => s.since));
    if (!list.every((s) => s.heardAt > newest)) return;
    duplicates.set(trackerId, now);
    const addresses = list.map((s) => s.link.address);
    log.warn('two devices speak for one tracker', { trackerId, addresses });
    onDuplicate?.(trackerId, { since: new Date(now), addresses });
  }

  const downlink: Downlink = {
    connected(trackerId, link) {
      const now = Date.now();
      const session: Session = { link, since: now, heardAt: now };
      const kept: Session[] = [];
      for (const s of sessions.get(trackerId) ?? []) {
        if (s.link.address === link.address || now - s.heardAt > liveMs) {
          // The same device again, or a session nobody heard from for long: replaced.
          s.link.close();
          continue;
        }
        kept.push(s);
      }
      kept.push(session);
      settle(trackerId, kept);
      return {
        heard() {
          const at = Date.now();
          session.heardAt = at;
          const list = sessions.get(trackerId);
          if (list && list.length > 1) {
            checkDuplicate(trackerId, at);
            dropSilent(trackerId, at);
          }
        },
        detach() {
          const list = sessions.get(trackerId);
          if (!list?.includes(session)) return;
          settle(
            trackerId,
            list.filter((s) => s !== session),
          );
        },
      };
    },
    created: (trackerId) => deliver([trackerId]),
    reachable: (trackerId) => commandLink(trackerId) !== undefined,
    async observed(trackerId, outputs, archivedAt, via) {
      if (!awaiting.has(trackerId)) return;
      // Only the link commands went through confirms them (not a second device).
      if (via && commandLink(trackerId) !== via) return;
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
    async answered(trackerId, via, answer) {
      if (commandLink(trackerId) !== via) return;
      const waiting = await awaitingConfirmation(db, trackerId);
      const oldest = waiting
        .filter((c) => c.sentAt)
        .sort((a, b) => (a.sentAt?.getTime() ?? 0) - (b.sentAt?.getTime() ?? 0))[0];
      if (!oldest) return;
      // The device's words are its own: bounded, and kept as text only.
      const words = [...answer.text]
        .map((c) => (c < ' ' || c === '\u007f' ? ' ' : c))
        .join('')
        .trim()
        .slice(0, 200);
      if (!answer.ok) {
        await failCommands(db, [oldest.id], DETAILS.refusedByDevice(words));
        return;
      }
      const confirmed = await confirmCommands(db, [oldest.id], DETAILS.answered(words));
      if (confirmed.length && onConfirmed)
        await onConfirmed(confirmed).catch((err: unknown) =>
          log.error('downlink: confirmation listener failed', { err }),
        );
    },
    async sweep() {
      const now = Date.now();
      for (const trackerId of [...sessions.keys()]) dropSilent(trackerId, now);
      const closed = await closeOverdue(db, config.confirmTimeoutMs, details);
      if (closed.expired || closed.failed) log.info('commands closed as overdue', closed);
      await deliver([...sessions.keys()]);
    },
  };
  return downlink;
}

/**
 * The state of a mirrored screen, as a polite status line: "Sem conexão — dados de HH:MM"
 * while offline, "Atualizando…" while syncing, "Atualizado às HH:MM" (or "Ao vivo") after.
 */
import { t } from '../../i18n/pt-BR';
import { localClock } from '../../lib/local-time';
import './MirrorState.css';

export function MirrorState({
  syncedAt,
  syncing,
  live = false,
  online,
}: {
  syncedAt: string | undefined;
  syncing: boolean;
  live?: boolean;
  /** Whether the browser is online (the page passes useOnline(): ui/ reads no hooks/). */
  online: boolean;
}) {
  const at = syncedAt ? localClock(syncedAt) : undefined;
  if (!online) {
    return (
      <p className="mirror-state mirror-offline" role="status">
        {at
          ? `${t.network.offline} — dados de ${at}`
          : `${t.network.offline} — ainda não há dados salvos neste aparelho`}
      </p>
    );
  }
  return (
    <p className={live ? 'mirror-state mirror-live' : 'mirror-state'} role="status">
      {syncing
        ? 'Atualizando…'
        : live
          ? t.screens.mirrorState.aoVivo
          : at
            ? `Atualizado às ${at}`
            : ''}
    </p>
  );
}

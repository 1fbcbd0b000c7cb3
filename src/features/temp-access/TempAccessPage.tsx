/** /temp-access/[token]: the read-only view of a shared link, opened without signing in. */

import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { toClientError } from '../../api/errors';
import { openSharedLink } from '../../api/sharing';
import { useAsync } from '../../app/useAsync';
import { t } from '../../i18n/pt-BR';
import { maskPlate } from '../../lib/masks';
import { EmptyState, FormMessage, Loading } from '../../ui/States';
import { AuthCard } from '../auth/AuthCard';

export function TempAccessPage() {
  const { token = '' } = useParams();
  const view = useAsync(() => openSharedLink(token), [token]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (view.error) void toClientError(view.error).then((failure) => setError(failure.message));
  }, [view.error]);

  return (
    <AuthCard title={t.tempAccess.title} intro={view.data ? view.data.name : t.tempAccess.intro}>
      {view.loading && <Loading label="Abrindo o link…" />}
      {error && <FormMessage kind="error">{error}</FormMessage>}
      {view.data && (
        <>
          <p className="muted">
            Válido até {new Date(view.data.expiresAt).toLocaleString('pt-BR')}.
          </p>
          {view.data.vehicles.length === 0 ? (
            <EmptyState title="Nenhum veículo compartilhado neste link." />
          ) : (
            <ul className="shared-vehicles" aria-label="Veículos compartilhados">
              {view.data.vehicles.map((vehicle) => (
                <li key={vehicle.id}>
                  <img src={`/markers/${vehicle.type.id}.svg`} alt="" width="32" height="32" />
                  <span>
                    <strong>{maskPlate(vehicle.plate)}</strong> {vehicle.name}
                    <br />
                    <span className="muted">{vehicle.type.label}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </AuthCard>
  );
}

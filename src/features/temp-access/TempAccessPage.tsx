/** /temp-access/[token]: a shared link's read-only view of vehicles (filled by the assets feature). */
import { useParams } from 'react-router';
import { t } from '../../i18n/pt-BR';
import { EmptyState } from '../../ui/States';
import { AuthCard } from '../auth/AuthCard';

export function TempAccessPage() {
  const { token } = useParams();
  return (
    <AuthCard title={t.tempAccess.title} intro={t.tempAccess.intro}>
      <EmptyState title={token ? 'Nenhum veículo compartilhado neste link.' : 'Link incompleto.'} />
    </AuthCard>
  );
}

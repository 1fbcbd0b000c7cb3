/** '/': the live map of the fleet (filled by the positions feature); a welcome for now. */
import { useSession } from '../../app/useSession';
import { t } from '../../i18n/pt-BR';
import { EmptyState } from '../../ui/States';

export function HomePage() {
  const current = useSession();
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page-header">
        <h1 id="page-title">{t.home}</h1>
      </div>
      <p>
        Olá, <strong>{current?.user.name}</strong>. Você está acompanhando a frota de{' '}
        <strong>{current?.user.clientName}</strong>.
      </p>
      <EmptyState title="Nenhum veículo com posição para mostrar ainda." />
    </section>
  );
}

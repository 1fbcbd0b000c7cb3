/**
 * What a route shows when its page cannot be opened: its code did not load (no signal and a
 * page this device never kept, or a version replaced on the server) or it failed while
 * drawing. Inside the shell for a signed-in page (the menu stays), on its own otherwise. A new
 * try reloads the app, which also picks up a newer version if there is one.
 */
import { t } from '../i18n/pt-BR';
import { Button } from '../ui/Button';
import { EmptyState } from '../ui/States';
import '../ui/page.css';

export function RouteError() {
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{t.routeError.title}</h1>
      <EmptyState title={offline ? t.routeError.offline : t.routeError.failed}>
        <Button onPress={() => location.reload()}>{t.routeError.retry}</Button>
      </EmptyState>
    </section>
  );
}

/**
 * What a Gestor or Administrador of a company that requires two-step sign-in sees, in place
 * of every page, until they turn it on: the server refuses their other calls until then.
 */

import { validateSession } from '../../api/auth';
import { signOut } from '../../api/client';
import { session } from '../../api/session';
import { twoFactorText as tt } from '../../i18n/two-factor';
import { Button } from '../../ui/Button';
import { TwoFactorSetup } from './TwoFactorSetup';
import '../../ui/page.css';
import './TwoFactor.css';

export function TwoFactorRequiredPage() {
  // Only once the recovery codes were kept: the fresh user (without the requirement) lets
  // the app open.
  async function done() {
    session.setUser(await validateSession());
  }

  return (
    <main className="two-factor-required">
      <section className="panel" aria-labelledby="page-title">
        <h1 id="page-title">{tt.requiredTitle}</h1>
        <p>{tt.requiredIntro}</p>
        <TwoFactorSetup onDone={() => void done()} />
        <div>
          <Button variant="ghost" onPress={() => void signOut()}>
            {tt.signOut}
          </Button>
        </div>
      </section>
    </main>
  );
}

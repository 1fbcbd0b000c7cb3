/**
 * The signed-in shell: a header with the customer, connection state and account menu; the
 * navigation (a side bar on desktops, a drawer on phones); breadcrumbs; the page.
 */
import { lazy, Suspense, useState } from 'react';
import {
  Breadcrumb,
  Breadcrumbs,
  Button,
  Header,
  Link,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  Separator,
} from 'react-aria-components';
import { Outlet, useLocation } from 'react-router';
import { signOut } from '../api/client';
import { ROLE_LABELS } from '../contract';
import { AlertBadge } from '../features/alerts/AlertBadge';
import { AlertListener } from '../features/alerts/AlertListener';
import { useOnline } from '../hooks/useOnline';
import { useSession } from '../hooks/useSession';
import { t } from '../i18n/pt-BR';
import { allAreas, areaOf, breadcrumbs, canOpen, canWrite } from '../shared/areas/areas';
import { PushInvitation } from '../shared/push/PushInvitation';
import { MenuIcon, OfflineIcon, UserIcon } from '../ui/icons';
import { MainMenu } from './MainMenu';
import { PushListener } from './PushListener';
import '../ui/Button.css';
import '../ui/Select.css';
import './AppLayout.css';

/** Pages with their own 'Ativar notificações': the invitation would say it twice there. */
const OWN_PUSH_BUTTON = new Set(['/account', '/fleet-management/alerts/alerts-history']);

// Only for the few sessions a company's requirement holds; it comes with the shell, never
// before the sign-in page.
const TwoFactorRequiredPage = lazy(() =>
  import('../features/account/AccountPage').then((m) => ({
    default: m.TwoFactorRequiredPage,
  })),
);

/**
 * The signed-in shell. A user whose company requires two-step sign-in and who has not turned
 * it on sees only its setup (the server refuses them everything else meanwhile): no menu, no
 * live stream, no alerts until it is on.
 */
export function AppLayout() {
  const current = useSession();
  if (current?.user.twoFactorSetupRequired)
    return (
      <Suspense fallback={null}>
        <TwoFactorRequiredPage />
      </Suspense>
    );
  return <SignedInLayout />;
}

function SignedInLayout() {
  const current = useSession();
  const location = useLocation();
  const online = useOnline();
  // The drawer is open for the page it was opened on: navigating closes it.
  const [navOpenAt, setNavOpenAt] = useState<string | null>(null);
  const navOpen = navOpenAt === location.pathname;
  const setNavOpen = (open: boolean) => setNavOpenAt(open ? location.pathname : null);

  const user = current?.user;
  // A record's crumb says 'Editar' only to those who may change it.
  const area = areaOf(location.pathname);
  const readOnly = !user || !area || !canWrite(area, user.role);
  const crumbs = breadcrumbs(location.pathname, readOnly ? t.list.details : undefined);
  // A crumb of an area this level does not open is its name, not a link to 'Acesso negado'.
  const opens = (path: string) => {
    const target = allAreas().find((a) => a.path === path);
    return !target || (user !== undefined && canOpen(target, user.role));
  };
  const history = allAreas().find((a) => a.path === '/fleet-management/alerts/alerts-history');
  const hearsAlerts = Boolean(user && history && canOpen(history, user.role));
  return (
    <div className={`shell${navOpen ? ' nav-open' : ''}`}>
      <a className="skip-link" href="#conteudo">
        {t.layout.skipToContent}
      </a>
      <header className="topbar">
        <Button
          className="icon-button nav-toggle"
          aria-label={navOpen ? t.layout.closeMenu : t.layout.openMenu}
          aria-expanded={navOpen}
          aria-controls="navegacao"
          onPress={() => setNavOpen(!navOpen)}
        >
          <MenuIcon />
        </Button>
        <Link href="/" className="brand">
          <img src="/icons/rastro.svg" alt="" width="28" height="28" />
          <span>{t.appName}</span>
        </Link>
        {user && (
          <span className="topbar-customer" title={t.layout.customer}>
            {user.clientName}
          </span>
        )}
        <span className="topbar-spacer" />
        {!online && (
          // On a narrow phone only its icon shows (AppLayout.css): its words stay its text, read
          // out, and the tooltip says what still works.
          <span className="offline-badge" role="status" title={t.network.offlineDetail}>
            <OfflineIcon />
            <span className="offline-badge-text">{t.network.offline}</span>
          </span>
        )}
        {hearsAlerts && <AlertBadge />}
        {user && (
          <MenuTrigger>
            <Button
              className="icon-button user-button"
              aria-label={`${t.layout.userMenu}: ${user.name}`}
            >
              <UserIcon />
              <span className="user-name">{user.name}</span>
            </Button>
            <Popover placement="bottom end" className="popover">
              <Menu
                className="menu"
                onAction={(key) => {
                  if (key === 'sign-out') void signOut();
                }}
              >
                <MenuSection>
                  <Header className="menu-header">
                    <strong>{user.name}</strong>
                    <span>{user.email}</span>
                    <span>
                      {t.layout.customer}: {user.clientName}
                    </span>
                    <span>
                      {t.layout.role}: {ROLE_LABELS[user.role]}
                    </span>
                  </Header>
                </MenuSection>
                <Separator />
                <MenuItem id="account" href="/account" className="menu-item">
                  {t.screens.appLayout.minhaConta}
                </MenuItem>
                <MenuItem id="sign-out" className="menu-item">
                  {t.session.signOut}
                </MenuItem>
              </Menu>
            </Popover>
          </MenuTrigger>
        )}
      </header>
      <AlertListener enabled={hearsAlerts} />
      {user && <PushListener />}
      <MainMenu id="navegacao" />
      <div className="nav-backdrop" onClick={() => setNavOpen(false)} aria-hidden="true" />
      <main id="conteudo" className="content" tabIndex={-1}>
        <nav aria-label={t.layout.breadcrumb}>
          <Breadcrumbs className="breadcrumbs">
            {crumbs.map((crumb) => (
              <Breadcrumb key={crumb.path} id={crumb.path}>
                {opens(crumb.path) ? (
                  <Link href={crumb.path}>{crumb.label}</Link>
                ) : (
                  <span className="crumb-text">{crumb.label}</span>
                )}
              </Breadcrumb>
            ))}
          </Breadcrumbs>
        </nav>
        {user && hearsAlerts && !OWN_PUSH_BUTTON.has(location.pathname) && (
          <PushInvitation userId={user.id} />
        )}
        <Outlet />
      </main>
    </div>
  );
}

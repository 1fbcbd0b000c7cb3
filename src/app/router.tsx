/**
 * Routes: the public pages of SPEC §2, then every signed-in area from features/areas inside
 * the session guard and the shell, each behind the permission its area needs ('Acesso
 * negado' otherwise). The root route holds what is always present: the toast area, the
 * update prompt and react-aria's link integration with the router.
 *
 * Every page loads lazily: before the sign-in page only the router, React, the controls it
 * uses and the API client load; OpenLayers and the IndexedDB mirror come with the pages that
 * use them, the query cache (TanStack Query) with the pages that read through it. The service
 * worker precaches every chunk, so a page never opened before still opens offline.
 *
 * Public pages use React Router's `lazy`. Signed-in pages must not load for a visitor who is
 * not signed in (the router resolves `lazy` of every matched route at once, before the
 * session guard could send them to the sign-in page): their element reads the chunk only
 * once rendered past the guard, and their loader loads it first only when there is a
 * session, so that a signed-in navigation loads shell and page together.
 */
import { Fragment, type ReactElement, Suspense, use } from 'react';
import { RouterProvider as AriaRouterProvider, I18nProvider } from 'react-aria-components';
import {
  createBrowserRouter,
  type NavigateOptions,
  Outlet,
  type RouteObject,
  useHref,
  useNavigate,
} from 'react-router';
import { onSignOut, session } from '../api/session';
import { whenIdle } from '../lib/idle';
import { allAreas, HOME } from '../shared/areas/areas';
import type { ResourceConfig } from '../shared/resources/resource';
import { Toaster } from '../ui/feedback/Toaster';
import { RequireAccess } from './RequireAccess';
import { RequireAuth } from './RequireAuth';
import { RouteError } from './RouteError';
import { UpdatePrompt } from './UpdatePrompt';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

// The mirror in IndexedDB outlives the page: it is emptied at sign-out even when this page
// never loaded it (its module then registers the same cleaner as it loads).
onSignOut(async () => {
  const { clearMirror } = await import('../db/database');
  await clearMirror();
});

function Root() {
  const navigate = useNavigate();
  return (
    <I18nProvider locale="pt-BR">
      <AriaRouterProvider navigate={(to, options) => void navigate(to, options)} useHref={useHref}>
        <Outlet />
        <Toaster />
        <UpdatePrompt />
      </AriaRouterProvider>
    </I18nProvider>
  );
}

type Load = () => Promise<ReactElement>;
type Wrap = (element: ReactElement) => ReactElement;
const bare: Wrap = (element) => element;

/** A public route whose page comes from a chunk of its own, loaded when first opened. */
const page =
  (load: Load, wrap: Wrap = bare) =>
  async () => ({ element: wrap(await load()) });

/**
 * A signed-in route: its chunk loads only past the session guard (see above). With a session,
 * the router's loader waits for it, so the page renders at once when the route is entered; a
 * page that suspended instead would wait for React's reveal throttle too (up to 300 ms after
 * the last fallback: most of the offline reload's wait for the map, measured). A chunk that
 * failed stays failed for that render (the route shows RouteError); entering the route again
 * tries anew.
 */
function signedIn(
  source: Load | Chunk,
  wrap: Wrap = bare,
): Pick<RouteObject, 'loader' | 'element' | 'errorElement'> {
  const chunk: Chunk = typeof source === 'function' ? { load: source } : source;
  return {
    loader: async () => {
      if (!session.get()) return null;
      if (chunk.failed) forget(chunk);
      await take(chunk).catch(() => {});
      return null;
    },
    element: wrap(
      <Suspense fallback={null}>
        <ChunkPage chunk={chunk} />
      </Suspense>,
    ),
    errorElement: <RouteError />,
  };
}

/** A signed-in page's chunk: its load, the one promise of it, and its element once loaded. */
interface Chunk {
  load: Load;
  pending?: Promise<ReactElement>;
  failed?: boolean;
  loaded?: ReactElement;
}

/** The chunk's one load (the same promise for every render, as `use` needs). */
function take(chunk: Chunk): Promise<ReactElement> {
  chunk.pending ??= chunk.load().then(
    (element) => {
      chunk.loaded = element;
      return element;
    },
    (err: unknown) => {
      chunk.failed = true;
      throw err;
    },
  );
  return chunk.pending;
}

/** Lets a failed chunk be loaded anew. */
function forget(chunk: Chunk) {
  chunk.pending = undefined;
  chunk.failed = false;
}

function ChunkPage({ chunk }: { chunk: Chunk }) {
  return chunk.loaded ?? use(take(chunk));
}

/** Areas whose screens exist: the list, and the form for create and edit. */
const SCREENS: Record<
  string,
  { list: () => Promise<ReactElement>; form?: () => Promise<ReactElement> }
> = {
  '/management/customers': {
    list: () => import('../features/customers/CustomersPage').then((m) => <m.CustomersPage />),
    form: () => import('../features/customers/CustomerPage').then((m) => <m.CustomerPage />),
  },
  '/management/users': {
    list: () => import('../features/users/UsersPage').then((m) => <m.UsersPage />),
    form: () => import('../features/users/UserPage').then((m) => <m.UserPage />),
  },
  '/management/vehicles': inventory(() =>
    import('../features/inventory/vehicles').then((m) => m.vehicleScreen),
  ),
  '/management/drivers': inventory(() =>
    import('../features/inventory/drivers').then((m) => m.driverScreen),
  ),
  '/management/simcards': inventory(() =>
    import('../features/inventory/sim-cards').then((m) => m.simCardScreen),
  ),
  '/management/trackers': inventory(() =>
    import('../features/inventory/trackers').then((m) => m.trackerScreen),
  ),
  '/management/tracker-types': inventory(() =>
    import('../features/inventory/tracker-types').then((m) => m.trackerTypeScreen),
  ),
  '/management/fleets': inventory(() =>
    import('../features/inventory/fleets').then((m) => m.fleetScreen),
  ),
  '/management/unknown-devices': {
    list: () =>
      import('../features/inventory/UnknownDevicesPage').then((m) => <m.UnknownDevicesPage />),
  },
  '/management/temporary-links': {
    list: () =>
      import('../features/temp-access/TemporaryLinksPage').then((m) => <m.TemporaryLinksPage />),
  },
  '/management/audit': {
    list: () => import('../features/audit/AuditPage').then((m) => <m.AuditPage />),
  },
  '/reports': {
    list: () => import('../features/reports/ReportsPage').then((m) => <m.ReportsPage />),
  },
  '/reports/histories': {
    list: () => import('../features/reports/HistoriesPage').then((m) => <m.HistoriesPage />),
  },
  '/reports/journeys': {
    list: () => import('../features/reports/JourneysPage').then((m) => <m.JourneysPage />),
  },
  '/reports/positions': {
    list: () => import('../features/reports/PositionsPage').then((m) => <m.PositionsPage />),
  },
  '/reports/distances': {
    list: () => import('../features/reports/DistancesPage').then((m) => <m.DistancesPage />),
  },
  '/reports/driving': {
    list: () => import('../features/reports/DrivingPage').then((m) => <m.DrivingPage />),
  },
  '/reports/jornada': {
    list: () => import('../features/jornada/JornadaPage').then((m) => <m.JornadaPage />),
  },
  '/reports/fleet-costs': {
    list: () => import('../features/reports/FleetCostsPage').then((m) => <m.FleetCostsPage />),
  },
  // Relatórios Automatizados: rules that send a report file by e-mail on a schedule.
  '/reports/auto-report-rules': inventory(() =>
    import('../features/reports/auto-report-rules').then((m) => m.autoReportRuleScreen),
  ),
  '/fleet-management/geofences': {
    list: () => import('../features/geofences/GeofencesPage').then((m) => <m.GeofencesPage />),
  },
  '/fleet-management/alerts': inventory(() =>
    import('../features/alerts/alert-rules').then((m) => m.alertRuleScreen),
  ),
  // The dashboard, invoices and payments.
  '/dashboard': {
    list: () => import('../features/dashboard/DashboardPage').then((m) => <m.DashboardPage />),
  },
  '/payments': {
    list: () => import('../features/payments/PaymentsPage').then((m) => <m.PaymentsPage />),
    form: () => import('../features/payments/InvoicePage').then((m) => <m.InvoicePage />),
  },
  '/fleet-management/maintenance': {
    list: () => import('../features/maintenance/screens').then((m) => <m.DueListPage />),
  },
  '/fleet-management/maintenance-plans': inventory(() =>
    import('../features/maintenance/screens').then((m) => m.planScreen),
  ),
  '/fleet-management/service-records': inventory(() =>
    import('../features/maintenance/screens').then((m) => m.serviceRecordScreen),
  ),
  '/fleet-management/documents': {
    list: () => import('../features/documents/screens').then((m) => <m.DocumentsPage />),
    form: inventory(() => import('../features/documents/screens').then((m) => m.documentScreen))
      .form,
  },
  '/fleet-management/driver-reports': {
    list: () =>
      import('../features/driver-reports/DriverReportsPage').then((m) => <m.DriverReportsPage />),
  },
  '/fleet-management/refuels': {
    list: () => import('../features/refuels/screens').then((m) => <m.RefuelsPage />),
    form: inventory(() => import('../features/refuels/screens').then((m) => m.refuelScreen)).form,
  },
  '/fleet-management/expenses': inventory(() =>
    import('../features/refuels/screens').then((m) => m.expenseScreen),
  ),
  '/fleet-management/alerts/alerts-history': {
    list: () => import('../features/alerts/AlertsHistoryPage').then((m) => <m.AlertsHistoryPage />),
  },
};

/** An inventory area: the generic list and form pages with the resource's screen config. */
function inventory<T extends { id: string }, P, V extends Record<string, unknown>>(
  config: () => Promise<ResourceConfig<T, P, V>>,
) {
  return {
    list: async () => {
      const [{ ResourceListPage }, screen] = await Promise.all([
        import('../shared/resources/ResourceListPage'),
        config(),
      ]);
      return <ResourceListPage config={screen} />;
    },
    form: async () => {
      const [{ ResourceFormPage }, screen] = await Promise.all([
        import('../shared/resources/ResourceFormPage'),
        config(),
      ]);
      return <ResourceFormPage config={screen} />;
    },
  };
}

/** The signed-in shell (with the query cache) and the home page: the map. */
const shell: Chunk = {
  load: () =>
    Promise.all([import('./QueryProvider'), import('./AppLayout')]).then(
      ([{ QueryProvider }, { AppLayout }]) => (
        <QueryProvider>
          <AppLayout />
        </QueryProvider>
      ),
    ),
};
const home: Chunk = {
  load: () => import('../features/map/FleetMapPage').then((m) => <m.FleetMapPage />),
};

/**
 * While the sign-in page waits for the person to type, the shell and the map load in the
 * background (when the browser is idle), so the map opens at once after signing in. Not
 * part of what loads before the sign-in page shows.
 */
function preloadAfterSignIn() {
  const run = () => {
    // A preload that failed (offline, say) is loaded anew when its route is entered (the
    // route's loader forgets a failed chunk).
    for (const chunk of [shell, home]) void take(chunk).catch(() => {});
  };
  whenIdle(run, 3000, 1000);
}

function areaRoutes(): RouteObject[] {
  return allAreas()
    .filter((area) => area.path !== '/')
    .flatMap((area): RouteObject[] => {
      const guard =
        (write = false) =>
        (element: ReactElement) => (
          <RequireAccess area={area} write={write}>
            {element}
          </RequireAccess>
        );
      const screens = SCREENS[area.path];
      if (screens) {
        const { form } = screens;
        return [
          { path: area.path, ...signedIn(screens.list, guard()) },
          ...(form
            ? [
                {
                  path: `${area.path}/create`,
                  ...signedIn(form, (e) => guard(true)(<Fragment key="create">{e}</Fragment>)),
                },
                // A record's page: editable with `write`, read-only with only `read`.
                { path: `${area.path}/:id`, ...signedIn(form, guard()) },
              ]
            : []),
        ];
      }
      const areaPage = (create: boolean) => () =>
        import('../features/areas/AreaPage').then((m) => (
          <m.AreaPage area={area} create={create} />
        ));
      return [
        { path: area.path, ...signedIn(areaPage(false), guard()) },
        ...(area.creatable
          ? [{ path: `${area.path}/create`, ...signedIn(areaPage(true), guard(true)) }]
          : []),
      ];
    });
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    // The first chunk of a page is on its way: nothing to show for that instant.
    HydrateFallback: () => null,
    children: [
      {
        path: '/login',
        lazy: page(() =>
          import('../features/auth/pages').then((m) => {
            preloadAfterSignIn();
            return <m.LoginPage />;
          }),
        ),
      },
      {
        path: '/create-password',
        lazy: page(() => import('../features/auth/pages').then((m) => <m.CreatePasswordPage />)),
      },
      {
        path: '/recover-password',
        lazy: page(() => import('../features/auth/pages').then((m) => <m.RecoverPasswordPage />)),
      },
      {
        path: '/confirm-email',
        lazy: page(() => import('../features/auth/pages').then((m) => <m.ConfirmEmailPage />)),
      },
      // The driver's own page: its link's token and PIN, not a user's session, open it.
      ...['/motorista/:token', '/motorista'].map((path) => ({
        path,
        lazy: page(() =>
          import('../features/driver-page/DriverPage').then((m) => <m.DriverPage />),
        ),
      })),
      {
        path: '/temp-access/:token',
        lazy: page(() =>
          Promise.all([
            import('./QueryProvider'),
            import('../features/temp-access/TempAccessPage'),
          ]).then(([{ QueryProvider }, { TempAccessPage }]) => (
            <QueryProvider>
              <TempAccessPage />
            </QueryProvider>
          )),
        ),
      },
      {
        ...signedIn(shell, (element) => <RequireAuth>{element}</RequireAuth>),
        children: [
          {
            path: '/',
            ...signedIn(home, (element) => <RequireAccess area={HOME}>{element}</RequireAccess>),
          },
          {
            path: '/account',
            ...signedIn(() =>
              import('../features/account/AccountPage').then((m) => <m.AccountPage />),
            ),
          },
          {
            path: '/support',
            ...signedIn(() =>
              import('../features/payments/SupportContact').then((m) => <m.SupportPage />),
            ),
          },
          ...areaRoutes(),
          {
            path: '*',
            ...signedIn(() =>
              import('../features/areas/NotFoundPage').then((m) => <m.NotFoundPage />),
            ),
          },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}

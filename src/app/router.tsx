/**
 * Routes: the public pages of SPEC §2, then every signed-in area from features/areas inside
 * the session guard and the shell, each behind the permission its area needs ('Acesso
 * negado' otherwise). The root route holds what is always present: the query cache, the toast
 * area, the update prompt and react-aria's link integration with the router.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { Fragment, type ReactElement } from 'react';
import { RouterProvider as AriaRouterProvider, I18nProvider } from 'react-aria-components';
import {
  createBrowserRouter,
  type NavigateOptions,
  Outlet,
  type RouteObject,
  useHref,
  useNavigate,
} from 'react-router';
import { queryClient } from '../api/query';
import { AccountPage } from '../features/account/AccountPage';
import { AreaPage } from '../features/areas/AreaPage';
import { allAreas, HOME } from '../features/areas/areas';
import { NotFoundPage } from '../features/areas/NotFoundPage';
import { CreatePasswordPage } from '../features/auth/CreatePasswordPage';
import { LoginPage } from '../features/auth/LoginPage';
import { RecoverPasswordPage } from '../features/auth/RecoverPasswordPage';
import { CustomerPage } from '../features/customers/CustomerPage';
import { CustomersPage } from '../features/customers/CustomersPage';
import { driverScreen } from '../features/inventory/drivers';
import { fleetScreen } from '../features/inventory/fleets';
import { ResourceFormPage } from '../features/inventory/ResourceFormPage';
import { ResourceListPage } from '../features/inventory/ResourceListPage';
import { simCardScreen } from '../features/inventory/sim-cards';
import { trackerTypeScreen } from '../features/inventory/tracker-types';
import { trackerScreen } from '../features/inventory/trackers';
import { vehicleScreen } from '../features/inventory/vehicles';
import { FleetMapPage } from '../features/map/FleetMapPage';
import { DistancesPage } from '../features/reports/DistancesPage';
import { HistoriesPage } from '../features/reports/HistoriesPage';
import { JourneysPage } from '../features/reports/JourneysPage';
import { PositionsPage } from '../features/reports/PositionsPage';
import { ReportsPage } from '../features/reports/ReportsPage';
import { TempAccessPage } from '../features/temp-access/TempAccessPage';
import { TemporaryLinksPage } from '../features/temp-access/TemporaryLinksPage';
import { UserPage } from '../features/users/UserPage';
import { UsersPage } from '../features/users/UsersPage';
import { Toaster } from '../ui/feedback/Toaster';
import { AppLayout } from './AppLayout';
import { RequireAccess } from './RequireAccess';
import { RequireAuth } from './RequireAuth';
import { UpdatePrompt } from './UpdatePrompt';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

function Root() {
  const navigate = useNavigate();
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider locale="pt-BR">
        <AriaRouterProvider
          navigate={(to, options) => void navigate(to, options)}
          useHref={useHref}
        >
          <Outlet />
          <Toaster />
          <UpdatePrompt />
        </AriaRouterProvider>
      </I18nProvider>
    </QueryClientProvider>
  );
}

/** Areas whose screens exist: the list, and the form for create and edit. */
const SCREENS: Record<string, { list: ReactElement; form?: ReactElement }> = {
  '/management/customers': { list: <CustomersPage />, form: <CustomerPage /> },
  '/management/users': { list: <UsersPage />, form: <UserPage /> },
  '/management/vehicles': {
    list: <ResourceListPage config={vehicleScreen} />,
    form: <ResourceFormPage config={vehicleScreen} />,
  },
  '/management/drivers': {
    list: <ResourceListPage config={driverScreen} />,
    form: <ResourceFormPage config={driverScreen} />,
  },
  '/management/simcards': {
    list: <ResourceListPage config={simCardScreen} />,
    form: <ResourceFormPage config={simCardScreen} />,
  },
  '/management/trackers': {
    list: <ResourceListPage config={trackerScreen} />,
    form: <ResourceFormPage config={trackerScreen} />,
  },
  '/management/tracker-types': {
    list: <ResourceListPage config={trackerTypeScreen} />,
    form: <ResourceFormPage config={trackerTypeScreen} />,
  },
  '/management/fleets': {
    list: <ResourceListPage config={fleetScreen} />,
    form: <ResourceFormPage config={fleetScreen} />,
  },
  '/management/temporary-links': { list: <TemporaryLinksPage /> },
  '/reports': { list: <ReportsPage /> },
  '/reports/histories': { list: <HistoriesPage /> },
  '/reports/journeys': { list: <JourneysPage /> },
  '/reports/positions': { list: <PositionsPage /> },
  '/reports/distances': { list: <DistancesPage /> },
};

function areaRoutes(): RouteObject[] {
  return allAreas()
    .filter((area) => area.path !== '/')
    .flatMap((area) => {
      const guard = (element: ReactElement, write = false) => (
        <RequireAccess area={area} write={write}>
          {element}
        </RequireAccess>
      );
      const screens = SCREENS[area.path];
      if (screens) {
        const { form } = screens;
        return [
          { path: area.path, element: guard(screens.list) },
          ...(form
            ? [
                {
                  path: `${area.path}/create`,
                  element: guard(<Fragment key="create">{form}</Fragment>, true),
                },
                // A record's page: editable with `write`, read-only with only `read`.
                { path: `${area.path}/:id`, element: guard(form) },
              ]
            : []),
        ];
      }
      return [
        { path: area.path, element: guard(<AreaPage area={area} />) },
        ...(area.creatable
          ? [{ path: `${area.path}/create`, element: guard(<AreaPage area={area} create />, true) }]
          : []),
      ];
    });
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/create-password', element: <CreatePasswordPage /> },
      { path: '/recover-password', element: <RecoverPasswordPage /> },
      { path: '/temp-access/:token', element: <TempAccessPage /> },
      {
        element: (
          <RequireAuth>
            <AppLayout />
          </RequireAuth>
        ),
        children: [
          {
            path: '/',
            element: (
              <RequireAccess area={HOME}>
                <FleetMapPage />
              </RequireAccess>
            ),
          },
          { path: '/account', element: <AccountPage /> },
          ...areaRoutes(),
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}

/**
 * Routes: the public pages of SPEC §2, then every signed-in area from navigation.ts inside
 * the guard and the shell. The root route holds what is always present: the toast area, the
 * update prompt and react-aria's link integration with the router.
 */

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
import { AccountPage } from '../features/account/AccountPage';
import { AreaPage } from '../features/areas/AreaPage';
import { NotFoundPage } from '../features/areas/NotFoundPage';
import { CreatePasswordPage } from '../features/auth/CreatePasswordPage';
import { LoginPage } from '../features/auth/LoginPage';
import { RecoverPasswordPage } from '../features/auth/RecoverPasswordPage';
import { CustomerPage } from '../features/customers/CustomerPage';
import { CustomersPage } from '../features/customers/CustomersPage';
import {
  driverScreen,
  fleetScreen,
  simCardScreen,
  trackerScreen,
  trackerTypeScreen,
  vehicleScreen,
} from '../features/inventory/configs';
import { ResourceFormPage } from '../features/inventory/ResourceFormPage';
import { ResourceListPage } from '../features/inventory/ResourceListPage';
import { FleetMapPage } from '../features/map/FleetMapPage';
import { TempAccessPage } from '../features/temp-access/TempAccessPage';
import { TemporaryLinksPage } from '../features/temp-access/TemporaryLinksPage';
import { UserPage } from '../features/users/UserPage';
import { UsersPage } from '../features/users/UsersPage';
import { AppLayout } from './AppLayout';
import { allAreas } from './navigation';
import { RequireAuth } from './RequireAuth';
import { Toaster } from './Toaster';
import { UpdatePrompt } from './UpdatePrompt';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: NavigateOptions;
  }
}

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
};

function areaRoutes(): RouteObject[] {
  return allAreas()
    .filter((area) => area.path !== '/')
    .flatMap((area) => {
      const screens = SCREENS[area.path];
      if (screens) {
        const { form } = screens;
        return [
          { path: area.path, element: screens.list },
          ...(form
            ? [
                { path: `${area.path}/create`, element: <Fragment key="create">{form}</Fragment> },
                { path: `${area.path}/:id`, element: form },
              ]
            : []),
        ];
      }
      return [
        { path: area.path, element: <AreaPage area={area} /> },
        ...(area.creatable
          ? [{ path: `${area.path}/create`, element: <AreaPage area={area} create /> }]
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
          { path: '/', element: <FleetMapPage /> },
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

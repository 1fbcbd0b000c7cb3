/**
 * Routes: the public pages of SPEC §2, then every signed-in area from navigation.ts inside
 * the guard and the shell. The root route holds what is always present: the toast area, the
 * update prompt and react-aria's link integration with the router.
 */

import type { ComponentType } from 'react';
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
import { HomePage } from '../features/home/HomePage';
import { TempAccessPage } from '../features/temp-access/TempAccessPage';
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
const SCREENS: Record<string, { list: ComponentType; form: ComponentType }> = {
  '/management/customers': { list: CustomersPage, form: CustomerPage },
  '/management/users': { list: UsersPage, form: UserPage },
};

function areaRoutes(): RouteObject[] {
  return allAreas()
    .filter((area) => area.path !== '/')
    .flatMap((area) => {
      const screens = SCREENS[area.path];
      if (screens) {
        const { list: List, form: EditForm } = screens;
        return [
          { path: area.path, element: <List /> },
          { path: `${area.path}/create`, element: <EditForm key="create" /> },
          { path: `${area.path}/:id`, element: <EditForm /> },
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
          { path: '/', element: <HomePage /> },
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

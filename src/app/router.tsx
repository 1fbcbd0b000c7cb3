/**
 * Routes: the public pages of SPEC §2, then every signed-in area from navigation.ts inside
 * the guard and the shell. The root route holds what is always present: the toast area, the
 * update prompt and react-aria's link integration with the router.
 */
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
import { HomePage } from '../features/home/HomePage';
import { TempAccessPage } from '../features/temp-access/TempAccessPage';
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

function areaRoutes(): RouteObject[] {
  return allAreas()
    .filter((area) => area.path !== '/')
    .flatMap((area) => [
      { path: area.path, element: <AreaPage area={area} /> },
      ...(area.creatable
        ? [{ path: `${area.path}/create`, element: <AreaPage area={area} create /> }]
        : []),
    ]);
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

import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { ROUTES } from "@/app/routes";
import { RouteScreen } from "@/app/RouteScreen";
import { AppShell } from "@/app/shell/AppShell";
import { NotFoundPage } from "@/pages/system/NotFoundPage";

/** The route tree: `/` → `/dashboard`, every spec route, and not-found for anything else. */
export function buildRouteObjects(): RouteObject[] {
  return [
    {
      path: "/",
      element: <AppShell />,
      children: [
        { index: true, element: <Navigate to="/dashboard" replace /> },
        ...ROUTES.map((r) => ({ path: r.path, element: <RouteScreen route={r} /> })),
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ];
}

export function createAppRouter(): ReturnType<typeof createBrowserRouter> {
  return createBrowserRouter(buildRouteObjects());
}

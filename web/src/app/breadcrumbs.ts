import { matchPath } from "react-router";
import { ROUTES, type AppRoute } from "@/app/routes";

export interface Crumb {
  label: string;
  href: string;
}

/** The route a concrete path renders; static segments win over parameters (as in React Router). */
export function findRoute(pathname: string, routes: readonly AppRoute[] = ROUTES): AppRoute | undefined {
  const matches = routes.filter((r) => matchPath({ path: `/${r.path}`, end: true }, pathname));
  const score = (r: AppRoute): number => r.path.split("/").filter((s) => !s.startsWith(":")).length;
  return matches.sort((a, b) => score(b) - score(a))[0];
}

/** Breadcrumbs for a path: every prefix that is itself a screen, ending with the current screen. */
export function breadcrumbsFor(pathname: string, routes: readonly AppRoute[] = ROUTES): Crumb[] {
  const segments = pathname.split("/").filter(Boolean);
  const crumbs: Crumb[] = [];
  for (let i = 1; i <= segments.length; i++) {
    const href = `/${segments.slice(0, i).join("/")}`;
    const route = findRoute(href, routes);
    if (!route) continue;
    // An intermediate word segment ("nodes/fabric") is not an id, even if a ":id" route would match it;
    // a name parameter (plugins/:name) takes any word.
    const isLast = i === segments.length;
    const param = route.path.split("/").pop() ?? "";
    if (!isLast && /^:\w*id$/i.test(param) && !/^\d+$/.test(segments[i - 1]!)) continue;
    crumbs.push({ label: route.title, href });
  }
  if (segments[0] === "settings" && crumbs[0]?.href !== "/settings/general" && pathname !== "/settings/general") {
    crumbs.unshift({ label: "Settings", href: "/settings/general" });
  }
  return crumbs;
}

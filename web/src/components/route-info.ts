import { createContext, useContext } from "react";

/** A link back from a screen: its parent list, or the dashboard. */
export interface BackLink {
  label: string;
  href: string;
}

/** The screen being shown, so shared states can say "Node not found" and link back to "Nodes". */
export interface RouteInfo {
  title: string;
  back: BackLink;
}

export const DASHBOARD_BACK: BackLink = { label: "Dashboard", href: "/dashboard" };

export const RouteInfoContext = createContext<RouteInfo | undefined>(undefined);

export function useRouteInfo(): RouteInfo | undefined {
  return useContext(RouteInfoContext);
}

import type { CSSProperties, ReactElement } from "react";
import { Link, useLocation } from "react-router";
import { activeNavHref, navForRole } from "@/app/nav";
import { APP_VERSION, PRODUCT_NAME } from "@/app/constants";
import { SIDEBAR_WIDTH, SIDEBAR_WIDTH_ICON, SIDEBAR_WIDTH_MOBILE, useSidebar } from "@/app/shell/sidebar-state";
import { UserMenu } from "@/app/shell/UserMenu";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useMeQuery } from "@/data/auth/me-query";
import { cn } from "@/lib/utils";

function Logo({ collapsed }: { collapsed: boolean }): ReactElement {
  return (
    <Link to="/dashboard" className="flex h-12 items-center gap-2 overflow-hidden px-2" aria-label={PRODUCT_NAME}>
      <img src="/favicon.svg" alt="" className="size-8 shrink-0" />
      {!collapsed && (
        <span className="flex min-w-0 items-center gap-1.5">
          <span className="truncate text-base font-semibold tracking-tight">{PRODUCT_NAME}</span>
          <span className="rounded bg-gradient-to-r from-indigo-500 to-violet-500 px-1.5 py-px text-[10px] font-bold tracking-wider text-white">
            PRO
          </span>
        </span>
      )}
    </Link>
  );
}

function SidebarBody({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }): ReactElement {
  const me = useMeQuery();
  const { pathname } = useLocation();
  const groups = navForRole(me.data?.role);
  const active = activeNavHref(pathname);
  return (
    <div className="flex h-full flex-col text-sidebar-foreground">
      <div className="border-b border-sidebar-border p-2">
        <Logo collapsed={collapsed} />
      </div>
      <nav aria-label="Main" className="flex-1 overflow-x-hidden overflow-y-auto p-2">
        {groups.map((g) => (
          <div key={g.label} role="group" aria-label={g.label} className="mb-3">
            {collapsed ? (
              <div className="mx-2 mb-1 h-px bg-sidebar-border first:hidden" />
            ) : (
              <div className="px-2 pb-1 text-xs font-medium text-muted-foreground">{g.label}</div>
            )}
            <ul className="flex flex-col gap-0.5">
              {g.items.map((item) => {
                const isActive = active === item.href;
                const link = (
                  <Link
                    to={item.href}
                    onClick={onNavigate}
                    aria-current={isActive ? "page" : undefined}
                    aria-label={collapsed ? item.title : undefined}
                    className={cn(
                      "flex h-8 items-center gap-2 rounded-md px-2 text-sm transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground",
                      isActive && "bg-sidebar-accent font-medium text-sidebar-accent-foreground",
                      collapsed && "justify-center px-0",
                    )}
                  >
                    <item.icon className="size-4 shrink-0" />
                    {!collapsed && <span className="truncate">{item.title}</span>}
                  </Link>
                );
                return (
                  <li key={item.href}>
                    {collapsed ? (
                      <Tooltip>
                        <TooltipTrigger asChild>{link}</TooltipTrigger>
                        <TooltipContent side="right">{item.title}</TooltipContent>
                      </Tooltip>
                    ) : (
                      link
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
      <div className="border-t border-sidebar-border p-2">
        {!collapsed && <div className="px-2 pb-1.5 text-xs text-muted-foreground">{APP_VERSION}</div>}
        <UserMenu collapsed={collapsed} />
      </div>
    </div>
  );
}

/** The left navigation: a fixed column on desktop (16rem, or 3rem as icons), an off-canvas drawer under 768 px. */
export function AppSidebar(): ReactElement {
  const { open, isMobile, openMobile, setOpenMobile } = useSidebar();
  if (isMobile) {
    return (
      <Sheet open={openMobile} onOpenChange={setOpenMobile}>
        <SheetContent style={{ width: SIDEBAR_WIDTH_MOBILE }} data-testid="sidebar-mobile">
          <SheetTitle className="sr-only">Navigation</SheetTitle>
          <SheetDescription className="sr-only">Main navigation</SheetDescription>
          <SidebarBody collapsed={false} onNavigate={() => setOpenMobile(false)} />
        </SheetContent>
      </Sheet>
    );
  }
  const width = open ? SIDEBAR_WIDTH : SIDEBAR_WIDTH_ICON;
  return (
    <aside
      data-testid="sidebar"
      data-state={open ? "expanded" : "collapsed"}
      className="sticky top-0 hidden h-svh shrink-0 border-r border-sidebar-border bg-sidebar transition-[width] duration-200 ease-linear md:block"
      style={{ width, "--sidebar-width": width } as CSSProperties}
    >
      <SidebarBody collapsed={!open} />
    </aside>
  );
}

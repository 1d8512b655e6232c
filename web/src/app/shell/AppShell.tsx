import { useEffect, useState, type ReactElement } from "react";
import { Outlet, useLocation } from "react-router";
import { findRoute } from "@/app/breadcrumbs";
import { pageTitle } from "@/app/constants";
import { CommandPalette } from "@/app/palette/CommandPalette";
import { NotificationsProvider } from "@/app/notifications/NotificationsProvider";
import { AppHeader } from "@/app/shell/AppHeader";
import { AppSidebar } from "@/app/shell/AppSidebar";
import { SidebarProvider } from "@/app/shell/SidebarProvider";
import { TooltipProvider } from "@/components/ui/tooltip";

function useDocumentTitle(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = pageTitle(findRoute(pathname)?.title ?? "Not Found");
  }, [pathname]);
}

/** The authenticated frame every screen renders inside. */
export function AppShell(): ReactElement {
  const [paletteOpen, setPaletteOpen] = useState(false);
  useDocumentTitle();
  return (
    <TooltipProvider delayDuration={200}>
      <NotificationsProvider>
        <SidebarProvider>
          <div className="flex min-h-svh w-full">
            <AppSidebar />
            <div className="flex min-w-0 flex-1 flex-col">
              <AppHeader onOpenPalette={() => setPaletteOpen(true)} />
              <main className="flex-1 p-4 md:p-6 lg:p-8">
                <div className="mx-auto w-full max-w-6xl">
                  <Outlet />
                </div>
              </main>
            </div>
          </div>
          <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} />
        </SidebarProvider>
      </NotificationsProvider>
    </TooltipProvider>
  );
}

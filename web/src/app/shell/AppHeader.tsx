import { ExternalLinkIcon, LogInIcon, PanelLeftIcon, SearchIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { FEEDBACK_URL } from "@/app/constants";
import { NotificationsBell } from "@/app/notifications/NotificationsBell";
import { Breadcrumbs } from "@/app/shell/Breadcrumbs";
import { CreateMenu } from "@/app/shell/CreateMenu";
import { useSidebar } from "@/app/shell/sidebar-state";
import { ThemeToggle } from "@/app/theme/ThemeToggle";
import { LoginDialog } from "@/pages/login/LoginDialog";
import { Button } from "@/components/ui/button";
import { Separator } from "@/components/ui/separator";
import { useMeQuery } from "@/data/auth/me-query";

/** Top bar: sidebar toggle, breadcrumbs, search, demo login, create menu, feedback, bell, theme. */
export function AppHeader({ onOpenPalette }: { onOpenPalette: () => void }): ReactElement {
  const { toggle } = useSidebar();
  const me = useMeQuery();
  const [loginOpen, setLoginOpen] = useState(false);
  return (
    <header className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-2 border-b bg-background/90 px-3 backdrop-blur md:px-4">
      <Button variant="ghost" size="icon-sm" aria-label="Toggle Sidebar" onClick={toggle}>
        <PanelLeftIcon />
      </Button>
      <Separator orientation="vertical" className="mr-1 h-4" />
      <Breadcrumbs />
      <div className="ml-auto flex items-center gap-1.5">
        <Button
          variant="outline"
          size="sm"
          className="hidden w-48 justify-start text-muted-foreground lg:flex"
          onClick={onOpenPalette}
        >
          <SearchIcon /> Search...
          <kbd className="ml-auto rounded border bg-muted px-1.5 font-mono text-[10px]">⌘K</kbd>
        </Button>
        <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Search" onClick={onOpenPalette}>
          <SearchIcon />
        </Button>
        {me.data?.demo_mode && (
          <>
            <Button size="sm" variant="outline" onClick={() => setLoginOpen(true)}>
              <LogInIcon /> Login
            </Button>
            <LoginDialog open={loginOpen} onOpenChange={setLoginOpen} />
          </>
        )}
        <CreateMenu />
        <Button variant="ghost" size="sm" asChild className="hidden md:inline-flex">
          <a href={FEEDBACK_URL} target="_blank" rel="noreferrer">
            Give Feedback <ExternalLinkIcon className="opacity-60" />
          </a>
        </Button>
        <NotificationsBell />
        <ThemeToggle />
      </div>
    </header>
  );
}

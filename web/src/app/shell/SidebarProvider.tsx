import { useCallback, useEffect, useMemo, useState, type ReactElement, type ReactNode } from "react";
import { isToggleShortcut, MOBILE_BREAKPOINT, SIDEBAR_STORAGE_KEY, SidebarContext } from "@/app/shell/sidebar-state";

function useIsMobile(): boolean {
  const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;
  const [mobile, setMobile] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const on = (e: MediaQueryListEvent): void => setMobile(e.matches);
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, [query]);
  return mobile;
}

/** Holds the sidebar state: collapsed-to-icons remembered in localStorage, Ctrl/Cmd+B toggles. */
export function SidebarProvider({ children }: { children: ReactNode }): ReactElement {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() => localStorage.getItem(SIDEBAR_STORAGE_KEY) !== "collapsed");
  const [openMobile, setOpenMobile] = useState(false);

  const setOpen = useCallback((v: boolean) => {
    localStorage.setItem(SIDEBAR_STORAGE_KEY, v ? "expanded" : "collapsed");
    setOpenState(v);
  }, []);

  const toggle = useCallback(() => {
    if (isMobile) setOpenMobile((v) => !v);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (isToggleShortcut(e)) {
        e.preventDefault();
        toggle();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle]);

  const value = useMemo(
    () => ({ open, setOpen, isMobile, openMobile, setOpenMobile, toggle }),
    [open, setOpen, isMobile, openMobile, toggle],
  );
  return <SidebarContext.Provider value={value}>{children}</SidebarContext.Provider>;
}

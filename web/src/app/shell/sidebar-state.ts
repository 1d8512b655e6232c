import { createContext, useContext } from "react";

export const SIDEBAR_STORAGE_KEY = "chainlaunch-sidebar-state";
export const SIDEBAR_WIDTH = "16rem";
export const SIDEBAR_WIDTH_MOBILE = "18rem";
export const SIDEBAR_WIDTH_ICON = "3rem";
export const MOBILE_BREAKPOINT = 768;

export interface SidebarState {
  /** Desktop: expanded (true) or collapsed to icons. */
  open: boolean;
  setOpen: (open: boolean) => void;
  isMobile: boolean;
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  toggle: () => void;
}

export const SidebarContext = createContext<SidebarState | null>(null);

export function useSidebar(): SidebarState {
  const ctx = useContext(SidebarContext);
  if (!ctx) throw new Error("useSidebar must be used inside SidebarProvider");
  return ctx;
}

/** True for Ctrl+B / Cmd+B (the sidebar toggle shortcut). */
export function isToggleShortcut(e: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey">, key = "b"): boolean {
  return e.key.toLowerCase() === key && (e.ctrlKey || e.metaKey);
}

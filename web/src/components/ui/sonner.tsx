import type { ReactElement } from "react";
import { Toaster as Sonner } from "sonner";
import { useTheme } from "@/app/theme/ThemeProvider";

/** The app's single toaster; follows the resolved theme. */
export function Toaster(): ReactElement {
  const { resolved } = useTheme();
  return <Sonner theme={resolved} position="bottom-right" visibleToasts={5} closeButton={false} />;
}

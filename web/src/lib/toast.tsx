import { CheckCircle2Icon, CopyIcon, InfoIcon, TriangleAlertIcon, XCircleIcon } from "lucide-react";
import type { ReactElement } from "react";
import { toast } from "sonner";
import { cn } from "@/lib/utils";

export type ToastKind = "success" | "error" | "warning" | "info";

export interface ToastOptions {
  description?: string | undefined;
  /** A link shown as a button; `onNavigate` performs the client-side navigation. */
  link?: { href: string; label: string; onNavigate: (href: string) => void } | undefined;
  duration?: number;
}

const ICONS: Record<ToastKind, ReactElement> = {
  success: <CheckCircle2Icon className="size-4 text-success" />,
  error: <XCircleIcon className="size-4 text-destructive" />,
  warning: <TriangleAlertIcon className="size-4 text-amber-500" />,
  info: <InfoIcon className="size-4 text-primary" />,
};

/** Text the copy action puts on the clipboard: the title plus the description (spec §1). */
export function toastClipboardText(title: string, description?: string): string {
  return description ? `${title}\n${description}` : title;
}

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success("Copied to clipboard", { duration: 1500 });
  } catch {
    toast.error("Could not copy to clipboard", { duration: 2000 });
  }
}

/** Shows a toast with the app's look: icon, title, description, optional link, and a copy-to-clipboard action. */
export function showToast(kind: ToastKind, title: string, opts: ToastOptions = {}): void {
  const { description, link } = opts;
  toast.custom(
    (id) => (
      <div
        role={kind === "error" ? "alert" : "status"}
        data-toast-kind={kind}
        className={cn(
          "flex w-[356px] max-w-[calc(100vw-2rem)] items-start gap-3 rounded-lg border bg-popover p-4 text-popover-foreground shadow-lg",
          kind === "error" && "border-destructive/40",
        )}
      >
        <span className="mt-0.5">{ICONS[kind]}</span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold">{title}</p>
          {description ? <p className="mt-1 text-sm break-words text-muted-foreground">{description}</p> : null}
          {link ? (
            <button
              type="button"
              className="mt-2 text-sm font-medium text-primary hover:underline"
              onClick={() => {
                link.onNavigate(link.href);
                toast.dismiss(id);
              }}
            >
              {link.label}
            </button>
          ) : null}
        </div>
        <button
          type="button"
          aria-label="Copy to clipboard"
          title="Copy to clipboard"
          className="rounded p-1 text-muted-foreground hover:bg-accent hover:text-foreground"
          onClick={() => void copy(toastClipboardText(title, description))}
        >
          <CopyIcon className="size-3.5" />
        </button>
      </div>
    ),
    { duration: opts.duration ?? (kind === "error" ? 8000 : 5000) },
  );
}

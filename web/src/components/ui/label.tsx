import * as LabelPrimitive from "@radix-ui/react-label";
import type { ComponentProps, ReactElement } from "react";
import { cn } from "@/lib/utils";

export function Label({ className, ...props }: ComponentProps<typeof LabelPrimitive.Root>): ReactElement {
  return (
    <LabelPrimitive.Root
      data-slot="label"
      className={cn("flex items-center gap-2 text-sm leading-none font-medium select-none", className)}
      {...props}
    />
  );
}

/** A field's validation message, announced to screen readers. */
export function FieldError({ message }: { message?: string | undefined }): ReactElement | null {
  if (!message) return null;
  return (
    <p role="alert" className="text-xs font-medium text-destructive">
      {message}
    </p>
  );
}

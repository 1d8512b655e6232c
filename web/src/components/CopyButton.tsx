import { CheckIcon, CopyIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Button } from "@/components/ui/button";

/** Copies a value and confirms with a tick for two seconds. */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }): ReactElement {
  const [done, setDone] = useState(false);
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      onClick={() => {
        void navigator.clipboard.writeText(value).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 2000);
        });
      }}
    >
      {done ? <CheckIcon /> : <CopyIcon />}
      {done ? "Copied" : label}
    </Button>
  );
}

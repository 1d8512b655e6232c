import type { ReactElement } from "react";
import { CopyButton } from "@/components/CopyButton";

/** A secret shown once (an API key, the backup recovery key): the value in full, and a copy button. */
export function SecretValue({
  value,
  copyLabel,
  testId,
}: {
  value: string;
  copyLabel: string;
  testId: string;
}): ReactElement {
  return (
    <>
      <code data-testid={testId} className="flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all">
        {value}
      </code>
      <CopyButton value={value} label={copyLabel} />
    </>
  );
}

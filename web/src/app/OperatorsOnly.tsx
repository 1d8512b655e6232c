import type { ReactElement, ReactNode } from "react";
import { RoleGate } from "@/app/RoleGate";
import { OPERATORS } from "@/app/roles";
import { NoAccessState } from "@/components/states";

/** Key providers are for admins and managers (spec §6); viewers get a clear message, not a 403 error. */
export function OperatorsOnly({
  children,
  what = "see key providers",
}: {
  children: ReactNode;
  what?: string;
}): ReactElement {
  return (
    <RoleGate allowed={OPERATORS} fallback={<NoAccessState what={what} />}>
      {children}
    </RoleGate>
  );
}

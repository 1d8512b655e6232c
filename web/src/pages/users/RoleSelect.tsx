import type { ReactElement } from "react";
import type { Role } from "@/api/client";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

export const ROLE_LABELS: Record<Role, string> = { admin: "Admin", manager: "Manager", viewer: "Viewer" };

export function RoleSelect({
  id,
  value,
  onChange,
  options = ["admin", "manager", "viewer"],
}: {
  id?: string;
  value: Role;
  onChange: (r: Role) => void;
  options?: readonly Role[];
}): ReactElement {
  return (
    <Select value={value} onValueChange={(v) => onChange(v as Role)}>
      <SelectTrigger id={id} aria-label="Role">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {options.map((r) => (
          <SelectItem key={r} value={r}>
            {ROLE_LABELS[r]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

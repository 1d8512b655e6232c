import { CloudIcon, DatabaseIcon, LockKeyholeIcon, type LucideIcon } from "lucide-react";
import type { ReactElement } from "react";
import type { KeyProvider } from "@/api/client";
import { Badge } from "@/components/ui/badge";

export const PROVIDER_TYPES: Record<KeyProvider["type"], { label: string; icon: LucideIcon }> = {
  DATABASE: { label: "Database", icon: DatabaseIcon },
  VAULT: { label: "HashiCorp Vault", icon: LockKeyholeIcon },
  HSM: { label: "HSM", icon: LockKeyholeIcon },
  AWS_KMS: { label: "AWS KMS", icon: CloudIcon },
};

export function ProviderTypeBadge({ type }: { type: KeyProvider["type"] }): ReactElement {
  const t = PROVIDER_TYPES[type];
  return (
    <Badge variant="outline">
      <t.icon /> {t.label}
    </Badge>
  );
}

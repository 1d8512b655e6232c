import type { ReactElement } from "react";
import type { APIKey } from "@/api/client";
import { Badge } from "@/components/ui/badge";

/** Active, Expired or Revoked. */
export function KeyStatusBadge({ apiKey, now = Date.now() }: { apiKey: APIKey; now?: number }): ReactElement {
  if (!apiKey.is_active) return <Badge variant="destructive">Revoked</Badge>;
  if (apiKey.expires_at && new Date(apiKey.expires_at).getTime() < now) return <Badge variant="warning">Expired</Badge>;
  return <Badge variant="success">Active</Badge>;
}

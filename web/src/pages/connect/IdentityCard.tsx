import { TriangleAlertIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "react-router";
import { CopyButton } from "@/components/CopyButton";
import { DetailField, Mono } from "@/components/DetailField";
import { LoadingRows, QueryState } from "@/components/states";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useFederationIdentityQuery } from "@/data/federation/identity-query";

/** Where the endpoint is set: the Federation card of the general settings. */
export const ENDPOINT_SETTINGS_HREF = "/settings/general#federation";

/** This console's federation identity: node id, public key and the endpoint other consoles reach it at. */
export function IdentityCard(): ReactElement {
  const identity = useFederationIdentityQuery();
  return (
    <Card>
      <CardHeader>
        <CardTitle>This console</CardTitle>
        <CardDescription>
          Other consoles know this one by its node id, derived from its public key, and reach it at its endpoint.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState query={identity} loading={<LoadingRows rows={3} />}>
          {(id) => (
            <dl className="grid gap-4">
              <DetailField label="Node ID">
                <span className="flex flex-wrap items-center gap-2">
                  <Mono>{id.node_id}</Mono>
                  <CopyButton value={id.node_id} label="Copy node ID" />
                </span>
              </DetailField>
              <DetailField label="Public key (Ed25519)">
                <span className="flex flex-wrap items-center gap-2">
                  <Mono>{id.public_key}</Mono>
                  <CopyButton value={id.public_key} label="Copy public key" />
                </span>
              </DetailField>
              <DetailField label="Endpoint">
                {id.endpoint ? (
                  <span data-testid="federation-endpoint">
                    <Mono>{id.endpoint}</Mono>
                  </span>
                ) : (
                  <span
                    role="status"
                    className="flex items-start gap-2 rounded-lg border border-warning/50 bg-warning/10 px-3 py-2 font-normal"
                  >
                    <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-warning" />
                    <span>
                      No endpoint is set, so this console can neither invite nor accept. Set the URL other consoles
                      reach it at in{" "}
                      <Link to={ENDPOINT_SETTINGS_HREF} className="font-medium underline">
                        Settings
                      </Link>
                      .
                    </span>
                  </span>
                )}
              </DetailField>
            </dl>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}

import { useState, type ReactElement } from "react";
import { Link } from "react-router";
import type { Role } from "@/api/client";
import { CopyButton } from "@/components/CopyButton";
import { LoadingRows, PageHeader, QueryState } from "@/components/states";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useApiKeyCreateMutation } from "@/data/api-keys/api-key-create-mutation";
import { useMeQuery } from "@/data/auth/me-query";
import { useMcpInfoQuery, type McpInfo } from "@/data/mcp/mcp-info-query";
import { SettingsNav } from "@/pages/settings/SettingsNav";
import { McpConfigTabs } from "@/pages/settings/mcp/McpConfigTabs";
import { McpKeyCreateForm, McpKeySecret, type CreatedMcpKey } from "@/pages/settings/mcp/McpKeyCard";
import { McpToolList } from "@/pages/settings/mcp/McpToolList";

/** Endpoint, transport, version and how clients authenticate. */
export function McpEndpointCard({ info }: { info: McpInfo }): ReactElement {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Endpoint</CardTitle>
        <CardDescription>
          Point an MCP client (Claude, Cursor, VS Code…) at this URL to let an assistant operate this console.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code data-testid="mcp-endpoint" className="flex-1 rounded-md border bg-muted px-3 py-2 font-mono break-all">
            {info.endpoint}
          </code>
          <CopyButton value={info.endpoint} label="Copy URL" />
        </div>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">Transport</dt>
          <dd>{info.transport}</dd>
          <dt className="text-muted-foreground">Server</dt>
          <dd>
            {info.name} {info.version}
          </dd>
          <dt className="text-muted-foreground">Authentication</dt>
          <dd>
            {info.authentication}. Session cookies are not accepted; manage keys under{" "}
            <Link className="underline" to="/settings/api-keys">
              API Keys
            </Link>
            .
          </dd>
        </dl>
      </CardContent>
    </Card>
  );
}

/**
 * The screen's body for a given server description. `created` is the key made on this visit: its
 * secret is shown once and filled into the configs, and is gone when dismissed or on leaving.
 */
export function McpSettingsView({
  info,
  myRole,
  created,
  pending,
  onCreate,
  onDismiss,
}: {
  info: McpInfo;
  myRole: Role;
  created: CreatedMcpKey | null;
  pending: boolean;
  onCreate: Parameters<typeof McpKeyCreateForm>[0]["onCreate"];
  onDismiss: () => void;
}): ReactElement {
  return (
    <div className="grid max-w-4xl gap-6">
      <McpEndpointCard info={info} />
      {created ? (
        <McpKeySecret created={created} onDone={onDismiss} />
      ) : (
        <McpKeyCreateForm myRole={myRole} pending={pending} onCreate={onCreate} />
      )}
      <McpConfigTabs url={info.endpoint} secret={created?.secret} />
      <McpToolList tools={info.tools} />
    </div>
  );
}

/** Settings → MCP: connect AI assistants to the console over the Model Context Protocol. */
export function McpSettingsPage(): ReactElement {
  const info = useMcpInfoQuery();
  const me = useMeQuery();
  const create = useApiKeyCreateMutation();
  const [created, setCreated] = useState<CreatedMcpKey | null>(null);
  return (
    <div>
      <PageHeader title="Settings" description="Configure your ChainLaunch installation." />
      <SettingsNav />
      <QueryState query={info} loading={<LoadingRows rows={4} />}>
        {(i) => (
          <McpSettingsView
            info={i}
            myRole={me.data?.role ?? "viewer"}
            created={created}
            pending={create.isPending}
            onCreate={(body) =>
              create.mutate(body, {
                onSuccess: (r) =>
                  setCreated({ id: r.api_key.id, name: r.api_key.name, role: r.api_key.role, secret: r.key }),
              })
            }
            onDismiss={() => setCreated(null)}
          />
        )}
      </QueryState>
    </div>
  );
}

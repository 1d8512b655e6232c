import { PencilIcon, Trash2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { usePluginDeleteMutation } from "@/data/plugins/plugin-delete-mutation";
import { usePluginQuery } from "@/data/plugins/plugin-query";
import { usePluginServicesQuery } from "@/data/plugins/plugin-services-query";
import { usePluginStatusQuery } from "@/data/plugins/plugin-status-query";
import type { Plugin } from "@/data/plugins/types";
import { showToast } from "@/lib/toast";
import { PluginActions } from "@/pages/plugins/PluginActions";
import { PluginDeployment } from "@/pages/plugins/PluginDeployment";
import { PluginDocumentation } from "@/pages/plugins/PluginDocumentation";
import { PluginLogs } from "@/pages/plugins/PluginLogs";
import { PluginServices } from "@/pages/plugins/PluginServices";
import { PluginStatusBadge } from "@/pages/plugins/PluginStatusBadge";
import { pluginRuntime } from "@/pages/plugins/plugin-status";

function DeletePluginButton({ name }: { name: string }): ReactElement {
  const [open, setOpen] = useState(false);
  const del = usePluginDeleteMutation();
  const navigate = useNavigate();
  return (
    <>
      <Button variant="destructive" onClick={() => setOpen(true)}>
        <Trash2Icon /> Delete
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(v) => {
          if (!v) del.reset();
          setOpen(v);
        }}
        title={`Delete ${name}?`}
        description="Its processes are stopped and its folder is removed. This cannot be undone."
        confirmLabel="Delete plugin"
        pending={del.isPending}
        error={del.isError ? del.error.message || "The plugin could not be deleted." : undefined}
        onConfirm={() =>
          del.mutate(name, {
            onSuccess: () => {
              showToast("success", "Plugin deleted", { description: `${name} was removed.` });
              void navigate("/plugins");
            },
          })
        }
      />
    </>
  );
}

function PluginDetail({ plugin }: { plugin: Plugin }): ReactElement {
  const name = plugin.metadata.name;
  const statusQuery = usePluginStatusQuery(name);
  const deployment = statusQuery.data ?? plugin.deploymentStatus;
  const status = deployment?.status;
  const live = status === "running" || status === "deploying";
  const services = usePluginServicesQuery(name, live);
  // Processes are named in the document; compose services only once the project exists.
  const serviceNames = [
    ...new Set([...(plugin.spec.processes ?? []).map((p) => p.name), ...(services.data ?? []).map((s) => s.name)]),
  ];
  return (
    <div className="space-y-6">
      <PageHeader
        title={name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {plugin.metadata.version && <span className="font-mono text-xs">v{plugin.metadata.version}</span>}
            <PluginStatusBadge status={status} />
            <Badge variant="outline">{pluginRuntime(plugin)}</Badge>
            {plugin.metadata.description && <span>{plugin.metadata.description}</span>}
          </span>
        }
        actions={
          <>
            <PluginActions name={name} status={status} hasParameters={Boolean(deployment?.parameters)} />
            <Button asChild variant="outline">
              <Link to={`/plugins/${encodeURIComponent(name)}/edit`}>
                <PencilIcon /> Edit
              </Link>
            </Button>
            <DeletePluginButton name={name} />
          </>
        }
      />
      <Tabs defaultValue="documentation">
        <TabsList className="justify-start">
          <TabsTrigger value="documentation">Documentation</TabsTrigger>
          <TabsTrigger value="services">Services</TabsTrigger>
          <TabsTrigger value="logs">Logs</TabsTrigger>
          <TabsTrigger value="deployment">Deployment</TabsTrigger>
        </TabsList>
        <TabsContent value="documentation" className="mt-4">
          <PluginDocumentation docs={plugin.spec.documentation} />
        </TabsContent>
        <TabsContent value="services" className="mt-4">
          <PluginServices name={name} poll={live} />
        </TabsContent>
        <TabsContent value="logs" className="mt-4">
          <PluginLogs name={name} services={serviceNames} />
        </TabsContent>
        <TabsContent value="deployment" className="mt-4">
          <PluginDeployment status={deployment} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function PluginDetailContent(): ReactElement {
  const name = useParams().name ?? "";
  const plugin = usePluginQuery(name);
  return <QueryState query={plugin}>{(p) => <PluginDetail plugin={p} />}</QueryState>;
}

/** plugins/{name}: documentation, services, logs and deployment of one plugin. Admins and managers only. */
export function PluginDetailPage(): ReactElement {
  return (
    <OperatorsOnly what="manage plugins">
      <PluginDetailContent />
    </OperatorsOnly>
  );
}

import {
  ArrowRightIcon,
  CheckIcon,
  DownloadIcon,
  Loader2Icon,
  PlusIcon,
  PuzzleIcon,
  RefreshCwIcon,
} from "lucide-react";
import type { ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { showMutationError } from "@/data/error-toast";
import { useAvailablePluginsQuery } from "@/data/plugins/available-plugins-query";
import { useAvailableRefreshMutation } from "@/data/plugins/available-refresh-mutation";
import { usePluginCreateMutation } from "@/data/plugins/plugin-create-mutation";
import { usePluginsQuery } from "@/data/plugins/plugins-query";
import type { AvailablePlugin, Plugin } from "@/data/plugins/types";
import { showToast } from "@/lib/toast";
import { formatDateTime } from "@/lib/utils";
import { PluginActions } from "@/pages/plugins/PluginActions";
import { PluginStatusBadge } from "@/pages/plugins/PluginStatusBadge";
import { pluginRuntime } from "@/pages/plugins/plugin-status";

function NewButton(): ReactElement {
  return (
    <Button asChild>
      <Link to="/plugins/new">
        <PlusIcon /> New plugin
      </Link>
    </Button>
  );
}

const pluginHref = (name: string): string => `/plugins/${encodeURIComponent(name)}`;

function InstalledTable({ list }: { list: Plugin[] }): ReactElement {
  const navigate = useNavigate();
  return (
    <Table aria-label="Installed plugins">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Version</TableHead>
          <TableHead>Description</TableHead>
          <TableHead>Runtime</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {list.map((p) => {
          const name = p.metadata.name;
          const status = p.deploymentStatus?.status;
          return (
            <TableRow key={name} className="cursor-pointer" onClick={() => void navigate(pluginHref(name))}>
              <TableCell>
                <Link to={pluginHref(name)} className="font-medium hover:underline">
                  {name}
                </Link>
              </TableCell>
              <TableCell className="font-mono text-xs">{p.metadata.version ?? "—"}</TableCell>
              <TableCell className="max-w-md truncate text-muted-foreground">{p.metadata.description ?? ""}</TableCell>
              <TableCell>
                <Badge variant="outline">{pluginRuntime(p)}</Badge>
              </TableCell>
              <TableCell>
                <PluginStatusBadge status={status} />
              </TableCell>
              <TableCell>
                <div className="flex justify-end gap-1">
                  <PluginActions
                    name={name}
                    status={status}
                    hasParameters={Boolean(p.deploymentStatus?.parameters)}
                    compact
                  />
                  <Button asChild variant="ghost" size="icon-sm">
                    <Link to={pluginHref(name)} aria-label={`Open ${name}`} onClick={(e) => e.stopPropagation()}>
                      <ArrowRightIcon />
                    </Link>
                  </Button>
                </div>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function InstallButton({ plugin, installed }: { plugin: AvailablePlugin; installed: boolean }): ReactElement {
  const create = usePluginCreateMutation();
  const navigate = useNavigate();
  if (installed) {
    return (
      <Button variant="outline" size="sm" disabled>
        <CheckIcon /> Installed
      </Button>
    );
  }
  return (
    <Button
      size="sm"
      disabled={create.isPending}
      aria-label={`Install ${plugin.name}`}
      onClick={() =>
        create.mutate(plugin.raw_yaml, {
          onSuccess: (p) =>
            showToast("success", "Plugin installed", {
              description: `${p.metadata.name} ${p.metadata.version ?? ""}`.trim(),
              link: { href: pluginHref(p.metadata.name), label: "Open", onNavigate: (h) => void navigate(h) },
            }),
          onError: showMutationError,
        })
      }
    >
      {create.isPending ? <Loader2Icon className="animate-spin" /> : <DownloadIcon />} Install
    </Button>
  );
}

function AvailableSection({ installedNames }: { installedNames: ReadonlySet<string> }): ReactElement {
  const available = useAvailablePluginsQuery();
  const refresh = useAvailableRefreshMutation();
  return (
    <Card className="gap-0 py-0">
      <CardHeader className="flex flex-row items-start justify-between gap-4 border-b py-4">
        <div>
          <CardTitle className="text-base">Available</CardTitle>
          <CardDescription>
            Plugins offered by the built-in catalogue and the configured registries.
            {available.data?.last_updated ? ` Updated ${formatDateTime(available.data.last_updated)}.` : ""}
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
          <RefreshCwIcon className={refresh.isPending ? "animate-spin" : undefined} /> Refresh
        </Button>
      </CardHeader>
      <QueryState
        query={available}
        isEmpty={(d) => d.plugins.length === 0 && !d.errors?.length}
        empty={<EmptyState icon={PuzzleIcon} title="No plugins available" description="The registries offer none." />}
      >
        {(d) => (
          <>
            {d.errors?.length ? (
              <ul role="alert" className="m-4 grid gap-1 rounded-lg border border-destructive/40 bg-destructive/10 p-3">
                {d.errors.map((e) => (
                  <li key={`${e.source}:${e.message}`} className="text-sm text-destructive">
                    <span className="font-medium">{e.source}</span>: {e.message}
                  </li>
                ))}
              </ul>
            ) : null}
            {d.plugins.length > 0 && (
              <Table aria-label="Available plugins">
                <TableHeader>
                  <TableRow>
                    <TableHead>Name</TableHead>
                    <TableHead>Version</TableHead>
                    <TableHead>Description</TableHead>
                    <TableHead>Source</TableHead>
                    <TableHead>Tags</TableHead>
                    <TableHead className="text-right">Install</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {d.plugins.map((p) => (
                    <TableRow key={`${p.source}:${p.name}`}>
                      <TableCell className="font-medium">{p.name}</TableCell>
                      <TableCell className="font-mono text-xs">{p.version ?? "—"}</TableCell>
                      <TableCell className="max-w-md min-w-56 whitespace-normal text-muted-foreground">
                        {p.description ?? ""}
                      </TableCell>
                      <TableCell className="max-w-48 text-xs whitespace-normal break-all">{p.source}</TableCell>
                      <TableCell className="min-w-40 whitespace-normal">
                        <div className="flex flex-wrap gap-1">
                          {(p.tags ?? []).map((t) => (
                            <Badge key={t} variant="secondary">
                              {t}
                            </Badge>
                          ))}
                        </div>
                      </TableCell>
                      <TableCell className="text-right">
                        <InstallButton plugin={p} installed={installedNames.has(p.name) || p.installed === true} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </>
        )}
      </QueryState>
    </Card>
  );
}

/** Installed plugins with their status and actions, and the ones the registries offer to install. */
function PluginsPageContent(): ReactElement {
  const plugins = usePluginsQuery();
  const installedNames = new Set((plugins.data ?? []).map((p) => p.metadata.name));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Plugins"
        description="Services that run next to your networks, such as a REST gateway for a channel's chaincodes."
        actions={<NewButton />}
      />
      <Card className="gap-0 py-0">
        <CardHeader className="border-b py-4">
          <CardTitle className="text-base">Installed</CardTitle>
          <CardDescription>Deploy a plugin to run it with the values its form asks for.</CardDescription>
        </CardHeader>
        <QueryState
          query={plugins}
          isEmpty={(d) => d.length === 0}
          empty={
            <EmptyState
              icon={PuzzleIcon}
              title="No plugins installed"
              description="Install one from the list below, or write your own."
              action={<NewButton />}
            />
          }
        >
          {(list) => <InstalledTable list={list} />}
        </QueryState>
      </Card>
      <AvailableSection installedNames={installedNames} />
    </div>
  );
}

/** Admins and managers only (spec §6). */
export function PluginsPage(): ReactElement {
  return (
    <OperatorsOnly what="manage plugins">
      <PluginsPageContent />
    </OperatorsOnly>
  );
}

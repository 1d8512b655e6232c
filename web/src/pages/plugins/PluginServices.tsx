import { ServerIcon } from "lucide-react";
import type { ReactElement } from "react";
import { EmptyState, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { usePluginServicesQuery } from "@/data/plugins/plugin-services-query";
import { PluginStatusBadge } from "@/pages/plugins/PluginStatusBadge";

function HealthBadge({ health }: { health: string | undefined }): ReactElement {
  if (!health) return <span className="text-muted-foreground">—</span>;
  const h = health.toLowerCase();
  const variant = h === "healthy" ? "success" : h === "unhealthy" ? "destructive" : "secondary";
  return <Badge variant={variant}>{health}</Badge>;
}

/** The plugin's processes: state, health, ports and the last error; polled while it runs. */
export function PluginServices({ name, poll }: { name: string; poll: boolean }): ReactElement {
  const services = usePluginServicesQuery(name, poll);
  return (
    <Card className="gap-0 py-0">
      <QueryState
        query={services}
        isEmpty={(d) => d.length === 0}
        empty={
          <EmptyState icon={ServerIcon} title="No services" description="Deploy the plugin to start its processes." />
        }
      >
        {(list) => (
          <Table aria-label="Services">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>State</TableHead>
                <TableHead>Health</TableHead>
                <TableHead>Ports</TableHead>
                <TableHead>Last error</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((s) => (
                <TableRow key={s.name} data-testid={`service-${s.name}`}>
                  <TableCell className="font-medium">{s.name}</TableCell>
                  <TableCell>
                    <PluginStatusBadge status={s.state} testId="service-state" />
                  </TableCell>
                  <TableCell>
                    <HealthBadge health={s.health} />
                  </TableCell>
                  <TableCell className="font-mono text-xs">{s.ports.length ? s.ports.join(", ") : "—"}</TableCell>
                  <TableCell className="max-w-md text-xs break-words text-destructive">{s.last_error ?? ""}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </QueryState>
    </Card>
  );
}

import type { ReactElement } from "react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { McpTool } from "@/data/mcp/mcp-info-query";

/** Every tool the server offers, read-only ones marked. */
export function McpToolList({ tools }: { tools: readonly McpTool[] }): ReactElement {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Tools ({tools.length})</CardTitle>
        <CardDescription>
          Each tool is one REST call. A key only sees the tools its role may call: a viewer key gets the read tools and
          queries, nothing that changes infrastructure.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {tools.length === 0 ? (
          <p className="text-sm text-muted-foreground">The server offers no tools.</p>
        ) : (
          <Table aria-label="MCP tools">
            <TableHeader>
              <TableRow>
                <TableHead>Tool</TableHead>
                <TableHead>Description</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {tools.map((t) => (
                <TableRow key={t.name}>
                  <TableCell className="align-top font-mono text-xs">
                    <div className="flex flex-col gap-1">
                      {t.name}
                      {t.read_only && <Badge variant="secondary">read-only</Badge>}
                    </div>
                  </TableCell>
                  <TableCell className="text-sm whitespace-normal">{t.description}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

import { LayoutTemplateIcon, PlusIcon, SearchIcon } from "lucide-react";
import { useEffect, useState, type ReactElement } from "react";
import { Link, useNavigate } from "react-router";
import { OPERATORS } from "@/app/roles";
import { RoleGate } from "@/app/RoleGate";
import { FileButton } from "@/components/FileButton";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useTemplateImportMutation } from "@/data/templates/template-import-mutation";
import { useTemplatesQuery } from "@/data/templates/templates-query";
import { TEMPLATE_PLATFORMS, type ImportTemplateBody, type TemplatePlatform } from "@/data/templates/types";
import { showMutationError } from "@/data/error-toast";
import { showToast } from "@/lib/toast";

const ALL = "all";

/** Reads an exported template file and imports it; a bad file is named before it is sent. */
function ImportButton(): ReactElement {
  const importing = useTemplateImportMutation();
  const navigate = useNavigate();
  return (
    <FileButton
      accept="application/json,.json"
      onFile={(file) => {
        void file.text().then((text) => {
          let doc: ImportTemplateBody;
          try {
            doc = JSON.parse(text) as ImportTemplateBody;
          } catch {
            showMutationError(new Error(`${file.name} is not JSON`));
            return;
          }
          importing.mutate(doc, {
            onSuccess: (t) => {
              showToast("success", "Template imported", { description: t.name });
              void navigate(`/templates/${t.id}`);
            },
          });
        });
      }}
    />
  );
}

/** Node templates: filter by platform, search by name or description; operators create and import. */
export function TemplatesPage(): ReactElement {
  const [platform, setPlatform] = useState<TemplatePlatform | undefined>();
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setQuery(search.trim()), 250);
    return () => clearTimeout(t);
  }, [search]);
  const templates = useTemplatesQuery({ platform, query });
  return (
    <div>
      <PageHeader
        title="Templates"
        description="Reusable node configurations with variables: fill them in to create a node."
        actions={
          <RoleGate allowed={OPERATORS}>
            <span className="text-sm text-muted-foreground">Import</span>
            <ImportButton />
            <Button asChild>
              <Link to="/templates/new">
                <PlusIcon /> New template
              </Link>
            </Button>
          </RoleGate>
        }
      />
      <Card className="pb-0">
        <div className="flex flex-wrap items-center gap-2 px-6">
          <div className="relative w-64">
            <SearchIcon className="absolute top-2.5 left-2.5 size-4 text-muted-foreground" />
            <Input
              aria-label="Search templates"
              placeholder="Search name or description"
              className="pl-8"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
          </div>
          <Select
            value={platform ?? ALL}
            onValueChange={(v) => setPlatform(v === ALL ? undefined : (v as TemplatePlatform))}
          >
            <SelectTrigger aria-label="Platform" className="w-40">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All platforms</SelectItem>
              {TEMPLATE_PLATFORMS.map((p) => (
                <SelectItem key={p} value={p}>
                  {p}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <QueryState
          query={templates}
          isEmpty={(d) => d.length === 0}
          empty={
            <EmptyState
              icon={LayoutTemplateIcon}
              title="No templates"
              description={query || platform ? "No template matches." : "Create one, or import an exported file."}
            />
          }
        >
          {(list) => (
            <Table aria-label="Templates">
              <TableHeader>
                <TableRow>
                  <TableHead>Name</TableHead>
                  <TableHead>Platform</TableHead>
                  <TableHead>Node type</TableHead>
                  <TableHead>Version</TableHead>
                  <TableHead>Uses</TableHead>
                  <TableHead>Tags</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.map((t) => (
                  <TableRow key={t.id}>
                    <TableCell>
                      <span className="flex items-center gap-2">
                        <Link className="font-medium hover:underline" to={`/templates/${t.id}`}>
                          {t.name}
                        </Link>
                        {t.is_default && <Badge variant="success">Default</Badge>}
                      </span>
                      {t.description && <p className="text-xs text-muted-foreground">{t.description}</p>}
                    </TableCell>
                    <TableCell>{t.platform}</TableCell>
                    <TableCell>{t.node_type}</TableCell>
                    <TableCell>{t.version}</TableCell>
                    <TableCell>{t.usage_count}</TableCell>
                    <TableCell>
                      <span className="flex flex-wrap gap-1">
                        {t.tags.map((tag) => (
                          <Badge key={tag} variant="outline">
                            {tag}
                          </Badge>
                        ))}
                      </span>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </Card>
    </div>
  );
}

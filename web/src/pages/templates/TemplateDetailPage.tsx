import { DownloadIcon, StarIcon } from "lucide-react";
import type { ReactElement } from "react";
import { useParams } from "react-router";
import { OPERATORS } from "@/app/roles";
import { RoleGate } from "@/app/RoleGate";
import { DeleteResourceButton } from "@/components/ConfirmDialog";
import { downloadText } from "@/components/PemBlock";
import { PageHeader, QueryState } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { showMutationError } from "@/data/error-toast";
import { useTemplateDeleteMutation } from "@/data/templates/template-delete-mutation";
import { fetchTemplateExport } from "@/data/templates/template-export";
import { useTemplateQuery } from "@/data/templates/template-query";
import { useTemplateSetDefaultMutation } from "@/data/templates/template-set-default-mutation";
import { useTemplateUpdateMutation } from "@/data/templates/template-update-mutation";
import type { Template } from "@/data/templates/types";
import { showToast } from "@/lib/toast";
import { formatDateTime } from "@/lib/utils";
import { TemplateForm } from "@/pages/templates/TemplateForm";
import { UseTemplateDialog } from "@/pages/templates/UseTemplateDialog";

/** A file name for the export: the template's name, safe for any file system. */
const exportName = (t: Template): string => `template-${t.name.replace(/[^A-Za-z0-9._-]+/g, "-")}.json`;

function Actions({ t }: { t: Template }): ReactElement {
  const setDefault = useTemplateSetDefaultMutation();
  const remove = useTemplateDeleteMutation();
  return (
    <>
      <Button
        variant="outline"
        onClick={() =>
          void fetchTemplateExport(t.id)
            .then((doc) => downloadText(exportName(t), JSON.stringify(doc, null, 2), "application/json"))
            .catch(showMutationError)
        }
      >
        <DownloadIcon /> Export
      </Button>
      <RoleGate allowed={OPERATORS}>
        <Button
          variant="outline"
          disabled={t.is_default || setDefault.isPending}
          onClick={() =>
            setDefault.mutate(t.id, {
              onSuccess: () => showToast("success", "Default template set", { description: t.name }),
            })
          }
        >
          <StarIcon /> Set as default
        </Button>
        <UseTemplateDialog template={t} />
        <DeleteResourceButton
          mutation={remove}
          id={t.id}
          name={t.name}
          description="The template is removed from the list; nodes made from it are not touched."
          confirmLabel="Delete template"
          deletedTitle="Template deleted"
          redirectTo="/templates"
        />
      </RoleGate>
    </>
  );
}

function EditCard({ t }: { t: Template }): ReactElement {
  const update = useTemplateUpdateMutation(t.id);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Template</CardTitle>
      </CardHeader>
      <CardContent>
        <RoleGate
          allowed={OPERATORS}
          fallback={
            <TemplateForm
              key={t.updated_at}
              template={t}
              readOnly
              submitLabel=""
              pending={false}
              onSubmit={() => undefined}
            />
          }
        >
          <TemplateForm
            key={t.updated_at}
            template={t}
            submitLabel="Save changes"
            pending={update.isPending}
            serverError={update.error?.message}
            onSubmit={({ platform: _p, node_type: _n, ...body }) =>
              update.mutate(body, { onSuccess: () => showToast("success", "Template saved", { description: t.name }) })
            }
          />
        </RoleGate>
      </CardContent>
    </Card>
  );
}

/** One template: what it is, its actions (export for all; default, use, delete for operators) and its form. */
export function TemplateDetailPage(): ReactElement {
  const id = Number(useParams().id);
  const template = useTemplateQuery(id);
  return (
    <QueryState query={template}>
      {(t) => (
        <div className="grid gap-6">
          <PageHeader
            title={t.name}
            description={
              <span className="flex flex-wrap items-center gap-2">
                {t.platform} {t.node_type} · version {t.version} · used {t.usage_count} times · by {t.created_by},{" "}
                {formatDateTime(t.created_at)}
                {t.is_default && <Badge variant="success">Default</Badge>}
              </span>
            }
            actions={<Actions t={t} />}
          />
          <EditCard t={t} />
        </div>
      )}
    </QueryState>
  );
}

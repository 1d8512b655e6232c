import type { ReactElement } from "react";
import { useNavigate } from "react-router";
import { OPERATORS } from "@/app/roles";
import { RoleGate } from "@/app/RoleGate";
import { NoAccessState, PageHeader } from "@/components/states";
import { Card, CardContent } from "@/components/ui/card";
import { useTemplateCreateMutation } from "@/data/templates/template-create-mutation";
import { showToast } from "@/lib/toast";
import { TemplateForm } from "@/pages/templates/TemplateForm";

/** New template (operators). */
export function TemplateCreatePage(): ReactElement {
  const create = useTemplateCreateMutation();
  const navigate = useNavigate();
  return (
    <div>
      <PageHeader title="New template" description="A node configuration with {{variable}} placeholders." />
      <RoleGate allowed={OPERATORS} fallback={<NoAccessState what="create templates" />}>
        <Card>
          <CardContent>
            <TemplateForm
              submitLabel="Create template"
              pending={create.isPending}
              serverError={create.error?.message}
              onSubmit={(body) =>
                create.mutate(body, {
                  onSuccess: (t) => {
                    showToast("success", "Template created", { description: t.name });
                    void navigate(`/templates/${t.id}`);
                  },
                })
              }
            />
          </CardContent>
        </Card>
      </RoleGate>
    </div>
  );
}

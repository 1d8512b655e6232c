import { useEffect, type ReactElement } from "react";
import { useForm } from "react-hook-form";
import { useNavigate, useParams } from "react-router";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { PageHeader, QueryState } from "@/components/states";
import { useNodeUpdateMutation } from "@/data/nodes/node-mutations";
import { useNodeQuery } from "@/data/nodes/node-query";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { formErrorsFrom } from "@/lib/field-errors";
import { updateOutcomeText } from "@/data/nodes/node-status";
import { showToast } from "@/lib/toast";
import {
  FABRIC_FORM_EMPTY,
  FABRIC_FORM_FIELDS,
  toUpdateFabricBody,
  valuesFromNode,
  type FabricFormValues,
} from "@/pages/nodes/fabric-form";
import { FabricNodeForm } from "@/pages/nodes/FabricNodeForm";

function FabricNodeEditContent(): ReactElement {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const node = useNodeQuery(id);
  const orgs = useOrganizationsQuery(ORGANIZATION_LIST_LIMIT);
  const form = useForm<FabricFormValues>({ defaultValues: FABRIC_FORM_EMPTY });
  const update = useNodeUpdateMutation();
  const loaded = node.data?.id;
  useEffect(() => {
    if (node.data) form.reset(valuesFromNode(node.data));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset once per node, not on every poll
  }, [loaded, form]);

  const onSubmit = form.handleSubmit((v) => {
    update.mutate(
      { id, body: toUpdateFabricBody(v) },
      {
        onSuccess: (n) => {
          showToast("success", "Node updated", { description: updateOutcomeText(n.name, node.data?.status) });
          void navigate(`/nodes/${n.id}`);
        },
        onError: (e) => {
          for (const [f, message] of Object.entries(formErrorsFrom(e, FABRIC_FORM_FIELDS))) {
            form.setError(f as keyof FabricFormValues, { message: message as string });
          }
        },
      },
    );
  });

  return (
    <QueryState query={node}>
      {(n) => (
        <div className="max-w-3xl">
          <PageHeader
            title={`Edit ${n.name}`}
            description="Saving regenerates the node's configuration and restarts it."
          />
          <FabricNodeForm
            form={form}
            mode="edit"
            organizations={orgs.data?.items ?? []}
            onSubmit={onSubmit}
            onCancel={() => void navigate(`/nodes/${n.id}`)}
            submitting={update.isPending}
            submitLabel="Save and restart"
          />
        </div>
      )}
    </QueryState>
  );
}

export function FabricNodeEditPage(): ReactElement {
  return (
    <OperatorsOnly what="edit nodes">
      <FabricNodeEditContent />
    </OperatorsOnly>
  );
}

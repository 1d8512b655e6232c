import { useEffect, useMemo, type ReactElement } from "react";
import { useForm } from "react-hook-form";
import { useNavigate, useSearchParams } from "react-router";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { PageHeader, QueryState } from "@/components/states";
import { useDockerEnginesQuery } from "@/data/docker-engines/docker-engines-query";
import { useNodeCreateMutation } from "@/data/nodes/node-mutations";
import { useFabricDefaultsQuery } from "@/data/nodes/node-query";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import {
  FABRIC_FORM_EMPTY,
  FABRIC_FORM_FIELDS,
  defaultEngineName,
  suggestName,
  toCreateFabricBody,
  withDefaults,
  type FabricFormValues,
} from "@/pages/nodes/fabric-form";
import { FabricNodeForm } from "@/pages/nodes/FabricNodeForm";

function FabricNodeCreateContent(): ReactElement {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orgs = useOrganizationsQuery(ORGANIZATION_LIST_LIMIT);
  const form = useForm<FabricFormValues>({
    defaultValues: { ...FABRIC_FORM_EMPTY, kind: params.get("type") === "orderer" ? "orderer" : "peer" },
  });
  const kind = form.watch("kind");
  const runtime = form.watch("runtime");
  const orgId = form.watch("organizationId");
  // A new runtime is a new query: container nodes get their external endpoint on the LAN address.
  const defaults = useFabricDefaultsQuery(kind, runtime);
  const create = useNodeCreateMutation();
  // Listed (and pinged) only once a container is chosen; a process node has no engine.
  const engines = useDockerEnginesQuery(runtime === "docker");
  const engine = form.watch("dockerEngine");
  useEffect(() => {
    if (!engine && engines.data) form.setValue("dockerEngine", defaultEngineName(engines.data));
  }, [engine, engines.data, form]);

  // Fill the proposed addresses whenever they (re)arrive for the chosen node type and runtime.
  useEffect(() => {
    if (defaults.data) form.reset(withDefaults(form.getValues(), defaults.data), { keepErrors: false });
  }, [defaults.data, form]);

  // Pick the only/first organization and suggest a name.
  const list = useMemo(() => orgs.data?.items ?? [], [orgs.data]);
  useEffect(() => {
    if (!orgId && list.length > 0) form.setValue("organizationId", String(list[0]!.id));
  }, [list, orgId, form]);
  const msp = list.find((o) => String(o.id) === orgId)?.mspId ?? "";
  useEffect(() => {
    if (msp && !form.getFieldState("name").isDirty) form.setValue("name", suggestName(kind, msp));
  }, [msp, kind, form]);

  const onSubmit = form.handleSubmit((v) => {
    create.mutate(
      { body: toCreateFabricBody(v, msp) },
      {
        onSuccess: (n) => {
          showToast("success", "Node created", { description: `${n.name} is starting.` });
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
    <div className="max-w-3xl">
      <PageHeader
        title="Create Fabric Node"
        description="A peer or orderer with certificates from its organization's CAs, run as a supervised process or a Docker container."
      />
      <QueryState query={orgs}>
        {() => (
          <FabricNodeForm
            form={form}
            mode="create"
            organizations={list}
            engines={engines.data}
            enginesFailed={engines.isError}
            onSubmit={onSubmit}
            onCancel={() => void navigate("/nodes")}
            onReloadDefaults={() => void defaults.refetch()}
            reloading={defaults.isFetching}
            submitting={create.isPending}
            submitLabel="Create node"
          />
        )}
      </QueryState>
    </div>
  );
}

/** Viewers can't create nodes; they see why instead of a form the server would refuse. */
export function FabricNodeCreatePage(): ReactElement {
  return (
    <OperatorsOnly what="create nodes">
      <FabricNodeCreateContent />
    </OperatorsOnly>
  );
}

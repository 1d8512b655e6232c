import { Loader2Icon, NetworkIcon } from "lucide-react";
import type { ReactElement } from "react";
import { useForm } from "react-hook-form";
import { useNavigate } from "react-router";
import { FileButton } from "@/components/FileButton";
import { EmptyState, PageHeader, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter } from "@/components/ui/card";
import { Input, Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { OperatorsOnly } from "@/app/OperatorsOnly";
import { ORGANIZATION_LIST_LIMIT } from "@/app/constants";
import { useBesuNetworkImportMutation } from "@/data/besu-networks/besu-network-import-mutation";
import { useOrganizationsQuery } from "@/data/organizations/organizations-query";
import { BlockImportForm, OrdererImportForm } from "@/pages/networks/FabricImportForms";
import { formErrorsFrom } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";

interface Values {
  name: string;
  description: string;
  chainId: string;
  genesisFile: string;
}

function BesuImportForm(): ReactElement {
  const navigate = useNavigate();
  const importNetwork = useBesuNetworkImportMutation();
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<Values>({ defaultValues: { name: "", description: "", chainId: "", genesisFile: "" } });

  const onSubmit = handleSubmit((v) =>
    importNetwork.mutate(
      {
        name: v.name.trim(),
        genesisFile: v.genesisFile,
        ...(v.description.trim() ? { description: v.description.trim() } : {}),
        ...(v.chainId.trim() ? { chainId: Number(v.chainId) } : {}),
      },
      {
        onSuccess: (r) => {
          showToast("success", "Besu network imported", { description: r.message });
          void navigate(`/networks/${r.networkId}/besu`);
        },
        onError: (e) => {
          const f = formErrorsFrom(e, { name: "name", chainId: "chainId", genesisFile: "genesisFile" });
          for (const [field, message] of Object.entries(f)) setError(field as keyof Values, { message });
        },
      },
    ),
  );

  return (
    <Card>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        <CardContent className="grid gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid content-start gap-2">
              <Label htmlFor="import-name">Name</Label>
              <Input
                id="import-name"
                placeholder="mainnet-copy"
                aria-invalid={Boolean(errors.name)}
                {...register("name", { required: "Name is required" })}
              />
              <FieldError message={errors.name?.message} />
            </div>
            <div className="grid content-start gap-2">
              <Label htmlFor="import-chain">Expected chain ID</Label>
              <Input
                id="import-chain"
                inputMode="numeric"
                placeholder="Optional; checked against the genesis"
                aria-invalid={Boolean(errors.chainId)}
                {...register("chainId", { validate: (v) => !v.trim() || /^\d+$/.test(v.trim()) || "A whole number" })}
              />
              <FieldError message={errors.chainId?.message} />
            </div>
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="import-description">Description</Label>
            <Input id="import-description" placeholder="Optional" {...register("description")} />
          </div>
          <div className="grid content-start gap-2">
            <div className="flex items-center justify-between gap-2">
              <Label htmlFor="import-genesis">Genesis file</Label>
              <FileButton
                accept=".json,application/json"
                onFile={(f) => void f.text().then((t) => setValue("genesisFile", t, { shouldValidate: true }))}
              />
            </div>
            <Textarea
              id="import-genesis"
              rows={12}
              placeholder='{ "config": { "chainId": 1337, "qbft": { … } }, "extraData": "0x…", … }'
              aria-invalid={Boolean(errors.genesisFile)}
              {...register("genesisFile", {
                required: "Paste or choose a genesis file",
                validate: (v) => {
                  try {
                    JSON.parse(v);
                    return true;
                  } catch {
                    return "This is not valid JSON";
                  }
                },
              })}
            />
            <FieldError message={errors.genesisFile?.message} />
          </div>
        </CardContent>
        <CardFooter className="justify-end border-t pt-5">
          <Button type="button" variant="outline" onClick={() => void navigate("/networks")}>
            Cancel
          </Button>
          <Button type="submit" disabled={importNetwork.isPending}>
            {importNetwork.isPending && <Loader2Icon className="animate-spin" />}
            Import network
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

function FabricImport(): ReactElement {
  const navigate = useNavigate();
  const orgs = useOrganizationsQuery(ORGANIZATION_LIST_LIMIT);
  const done = (r: { message: string; networkId: number }): void => {
    showToast("success", "Fabric network imported", { description: r.message });
    void navigate(`/networks/${r.networkId}/fabric`);
  };
  const cancel = (
    <Button type="button" variant="outline" onClick={() => void navigate("/networks")}>
      Cancel
    </Button>
  );
  return (
    <Card>
      <CardContent>
        <Tabs defaultValue="orderer">
          <TabsList>
            <TabsTrigger value="orderer">From an orderer</TabsTrigger>
            <TabsTrigger value="block">From a block file</TabsTrigger>
          </TabsList>
          <TabsContent value="orderer" className="mt-4">
            <QueryState query={orgs}>
              {(page) =>
                page.items.length === 0 ? (
                  <EmptyState
                    icon={NetworkIcon}
                    title="No organizations yet"
                    description="Reading a channel from its orderer takes an organization of this console that is a member of it."
                  />
                ) : (
                  <OrdererImportForm orgs={page.items} submitLabel="Import network" footer={cancel} onImported={done} />
                )
              }
            </QueryState>
          </TabsContent>
          <TabsContent value="block" className="mt-4">
            <BlockImportForm footer={cancel} onImported={done} />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}

/** Import an existing network: Besu from its genesis file; Fabric from an orderer or a block. */
function NetworkImportPageContent(): ReactElement {
  return (
    <div className="max-w-3xl">
      <PageHeader title="Import Network" description="Bring an existing network under ChainLaunch." />
      <Tabs defaultValue="besu">
        <TabsList>
          <TabsTrigger value="besu">Besu</TabsTrigger>
          <TabsTrigger value="fabric">Fabric</TabsTrigger>
        </TabsList>
        <TabsContent value="besu" className="mt-4">
          <BesuImportForm />
        </TabsContent>
        <TabsContent value="fabric" className="mt-4">
          <FabricImport />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** Viewers can't create networks; they see why instead of a form the server would refuse. */
export function NetworkImportPage(): ReactElement {
  return (
    <OperatorsOnly what="import networks">
      <NetworkImportPageContent />
    </OperatorsOnly>
  );
}

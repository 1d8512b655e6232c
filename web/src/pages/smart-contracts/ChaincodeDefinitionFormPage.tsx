import { Loader2Icon, WandSparklesIcon } from "lucide-react";
import { useEffect, useState, type FormEvent, type ReactElement } from "react";
import { useNavigate, useParams } from "react-router";
import { isApiError } from "@/api/errors";
import { ErrorState, LoadingRows, PageHeader } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input, Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import {
  uploadChaincodeSource,
  useCreateDefinitionMutation,
  useUpdateDefinitionMutation,
} from "@/data/chaincodes/chaincode-mutations";
import { useChaincodeQuery, useDefinitionsQuery, useDefinitionStatusQuery } from "@/data/chaincodes/chaincode-queries";
import type { ChaincodeDefinition, Collection, CreateDefinitionBody } from "@/data/chaincodes/types";
import { useFabricNetworkNodesQuery } from "@/data/fabric-networks/fabric-network-queries";
import { errorMessage } from "@/lib/utils";
import { buildPolicy, POLICY_ROLES, type PolicyRole, type PolicyRule } from "@/pages/smart-contracts/policy-builder";

const selectClass = "h-9 rounded-md border bg-background px-3 text-sm";

/** Pick orgs, a rule and a role; writes the DSL into the policy field (which stays editable). */
export function PolicyBuilder({ orgs, onBuild }: { orgs: string[]; onBuild: (dsl: string) => void }): ReactElement {
  const [chosen, setChosen] = useState<string[]>([]);
  const [rule, setRule] = useState<PolicyRule>("AND");
  const [role, setRole] = useState<PolicyRole>("peer");
  const [n, setN] = useState(1);
  return (
    <div className="grid gap-2 rounded-md border p-3" aria-label="Policy builder">
      <div className="flex flex-wrap gap-3">
        {orgs.map((o) => (
          <label key={o} className="flex items-center gap-1 text-sm">
            <input
              type="checkbox"
              checked={chosen.includes(o)}
              onChange={(e) => setChosen(e.target.checked ? [...chosen, o] : chosen.filter((x) => x !== o))}
            />
            {o}
          </label>
        ))}
        {orgs.length === 0 && <span className="text-sm text-muted-foreground">No peer orgs on this channel yet</span>}
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1">
          <Label htmlFor="policy-rule">Rule</Label>
          <select
            id="policy-rule"
            className={selectClass}
            value={rule}
            onChange={(e) => setRule(e.target.value as PolicyRule)}
          >
            <option value="AND">All of them (AND)</option>
            <option value="OR">Any of them (OR)</option>
            <option value="OUTOF">N of them (OutOf)</option>
          </select>
        </div>
        {rule === "OUTOF" && (
          <div className="grid gap-1">
            <Label htmlFor="policy-n">N</Label>
            <Input
              id="policy-n"
              type="number"
              min={1}
              className="w-20"
              value={n}
              onChange={(e) => setN(Number(e.target.value))}
            />
          </div>
        )}
        <div className="grid gap-1">
          <Label htmlFor="policy-role">Role</Label>
          <select
            id="policy-role"
            className={selectClass}
            value={role}
            onChange={(e) => setRole(e.target.value as PolicyRole)}
          >
            {POLICY_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <Button
          type="button"
          variant="outline"
          disabled={chosen.length === 0}
          onClick={() => onBuild(buildPolicy({ orgs: chosen, role, rule, n }))}
        >
          <WandSparklesIcon /> Use this policy
        </Button>
      </div>
    </div>
  );
}

interface FormState {
  version: string;
  sequence: string;
  policy: string;
  initRequired: boolean;
  sourceType: "none" | "node" | "go" | "executable" | "docker";
  sourcePath: string;
  dockerImage: string;
  address: string;
  tls: boolean;
  collections: string;
}

const fromDefinition = (d: ChaincodeDefinition): FormState => ({
  version: d.version,
  sequence: String(d.sequence),
  policy: d.endorsement_policy,
  initRequired: d.init_required,
  sourceType: d.source_type,
  sourcePath: "",
  dockerImage: d.docker_image,
  address: d.chaincode_address,
  tls: d.tls,
  collections: d.collections.length ? JSON.stringify(d.collections, null, 2) : "",
});

/** sc/fabric/chaincodes/{id}/add-definition and .../definitions/{definitionId}/edit. */
export function ChaincodeDefinitionFormPage(): ReactElement {
  const params = useParams();
  const chaincodeId = Number(params.id);
  const editId = params.definitionId ? Number(params.definitionId) : undefined;
  const cc = useChaincodeQuery(chaincodeId);
  const defs = useDefinitionsQuery(chaincodeId);
  const latest = defs.data?.at(-1);
  const latestStatus = useDefinitionStatusQuery(editId === undefined ? latest?.id : undefined);
  const members = useFabricNetworkNodesQuery(cc.data?.network_id ?? Number.NaN);
  const create = useCreateDefinitionMutation(chaincodeId);
  const update = useUpdateDefinitionMutation(editId ?? 0);
  const navigate = useNavigate();
  const editing = defs.data?.find((d) => d.id === editId);
  const [f, setF] = useState<FormState>({
    version: "1.0",
    sequence: "1",
    policy: "",
    initRequired: false,
    sourceType: "none",
    sourcePath: "",
    dockerImage: "",
    address: "",
    tls: false,
    collections: "",
  });
  const [file, setFile] = useState<File>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    if (loaded) return;
    if (editing) {
      setF(fromDefinition(editing));
      setLoaded(true);
    } else if (editId === undefined && latestStatus.data) {
      setF((x) => ({
        ...x,
        sequence: String(latestStatus.data.next_sequence),
        policy: latest?.endorsement_policy ?? "",
      }));
      setLoaded(true);
    } else if (editId === undefined && defs.data && defs.data.length === 0) {
      setLoaded(true);
    }
  }, [editing, editId, latestStatus.data, latest, defs.data, loaded]);

  if (cc.isPending || defs.isPending) return <LoadingRows />;
  if (cc.isError) return <ErrorState error={cc.error} what="Chaincode" />;
  if (editId !== undefined && !editing)
    return <ErrorState error={new Error("definition not found")} what="Definition" />;
  const orgs = [
    ...new Set(
      (members.data ?? [])
        .filter((m) => m.role === "peer")
        .map((m) => m.node?.fabricPeer?.mspId)
        .filter((x): x is string => Boolean(x)),
    ),
  ];
  const set = <K extends keyof FormState>(k: K, v: FormState[K]): void => setF((x) => ({ ...x, [k]: v }));

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setError(undefined);
    let collections: Collection[] | undefined;
    if (f.collections.trim()) {
      try {
        collections = JSON.parse(f.collections) as Collection[];
      } catch (err) {
        return setError(`collections: not valid JSON (${errorMessage(err)})`);
      }
    }
    if (f.sourceType === "docker" && !f.dockerImage.trim())
      return setError("docker_image: name the image to run, e.g. acme/asset:1.0");
    const body: CreateDefinitionBody = {
      version: f.version.trim(),
      sequence: Number(f.sequence),
      endorsement_policy: f.policy.trim(),
      init_required: f.initRequired,
      tls: f.tls,
      ...(collections ? { collections } : {}),
      ...(f.address.trim() ? { chaincode_address: f.address.trim() } : {}),
      ...(f.sourceType === "docker" ? { source_type: "docker" as const, docker_image: f.dockerImage.trim() } : {}),
      ...(f.sourcePath.trim() && f.sourceType !== "docker"
        ? { source_path: f.sourcePath.trim(), ...(f.sourceType !== "none" ? { source_type: f.sourceType } : {}) }
        : {}),
    };
    setBusy(true);
    try {
      const saved = editId !== undefined ? await update.mutateAsync(body) : await create.mutateAsync(body);
      if (file)
        await uploadChaincodeSource(
          saved.id,
          file,
          f.sourceType === "none" || f.sourceType === "docker" ? "auto" : f.sourceType,
        );
      navigate(`/sc/fabric/chaincodes/${chaincodeId}`);
    } catch (err) {
      setError(isApiError(err) ? err.message : errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <PageHeader
        title={editId !== undefined ? `Edit definition of ${cc.data.name}` : `Add definition to ${cc.data.name}`}
        description={`Channel ${cc.data.network_name}. The sequence must be the channel's committed sequence + 1.`}
      />
      <Card>
        <CardContent className="pt-6">
          <form className="grid max-w-3xl gap-4" onSubmit={(e) => void submit(e)}>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor="def-version">Version</Label>
                <Input id="def-version" value={f.version} onChange={(e) => set("version", e.target.value)} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="def-sequence">Sequence</Label>
                <Input
                  id="def-sequence"
                  type="number"
                  min={1}
                  value={f.sequence}
                  onChange={(e) => set("sequence", e.target.value)}
                />
              </div>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="def-policy">Endorsement policy</Label>
              <Input
                id="def-policy"
                value={f.policy}
                onChange={(e) => set("policy", e.target.value)}
                placeholder="AND('Org1MSP.peer','Org2MSP.peer'), or empty for the channel's default"
              />
              <PolicyBuilder orgs={orgs} onBuild={(dsl) => set("policy", dsl)} />
            </div>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={f.initRequired} onChange={(e) => set("initRequired", e.target.checked)} />
              Init required (the chaincode's Init must be invoked first)
            </label>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor="def-source-type">Source type</Label>
                <select
                  id="def-source-type"
                  className={selectClass}
                  value={f.sourceType}
                  onChange={(e) => set("sourceType", e.target.value as FormState["sourceType"])}
                >
                  <option value="none">Detect from the source</option>
                  <option value="node">Node.js / TypeScript (fabric-shim)</option>
                  <option value="go">Go</option>
                  <option value="executable">Prebuilt executable</option>
                  <option value="docker">Docker image (needs a Docker engine)</option>
                </select>
              </div>
              {f.sourceType === "docker" ? (
                <div className="grid content-start gap-2">
                  <Label htmlFor="def-image">Docker image</Label>
                  <Input
                    id="def-image"
                    className="font-mono"
                    aria-describedby="def-image-hint"
                    value={f.dockerImage}
                    onChange={(e) => set("dockerImage", e.target.value)}
                  />
                  <p id="def-image-hint" className="text-xs text-muted-foreground">
                    Image on the console's Docker engine; runs as the chaincode-as-a-service server.
                  </p>
                </div>
              ) : (
                <div className="grid gap-2">
                  <Label htmlFor="def-source-path">Source path</Label>
                  <Input
                    id="def-source-path"
                    value={f.sourcePath}
                    onChange={(e) => set("sourcePath", e.target.value)}
                    placeholder="/path/on/the/console/host"
                  />
                </div>
              )}
            </div>
            {f.sourceType !== "docker" && (
              <div className="grid gap-2">
                <Label htmlFor="def-source-file">Or upload an archive (tar.gz, zip) or executable</Label>
                <Input id="def-source-file" type="file" onChange={(e) => setFile(e.target.files?.[0])} />
              </div>
            )}
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor="def-address">Chaincode address</Label>
                <Input
                  id="def-address"
                  value={f.address}
                  onChange={(e) => set("address", e.target.value)}
                  placeholder="a free port is chosen when empty"
                />
              </div>
              <label className="flex items-center gap-2 self-end text-sm">
                <input type="checkbox" checked={f.tls} onChange={(e) => set("tls", e.target.checked)} />
                TLS between peers and the chaincode server
              </label>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="def-collections">Private data collections (JSON, optional)</Label>
              <Textarea
                id="def-collections"
                rows={4}
                value={f.collections}
                onChange={(e) => set("collections", e.target.value)}
                placeholder={
                  '[{"name":"private","policy":"OR(\'Org1MSP.member\')","requiredPeerCount":0,"maxPeerCount":1}]'
                }
              />
            </div>
            <FieldError message={error} />
            <div className="flex gap-2">
              <Button type="submit" disabled={busy}>
                {busy && <Loader2Icon className="animate-spin" />}{" "}
                {editId !== undefined ? "Save definition" : "Create definition"}
              </Button>
              <Button type="button" variant="outline" onClick={() => navigate(`/sc/fabric/chaincodes/${chaincodeId}`)}>
                Cancel
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}

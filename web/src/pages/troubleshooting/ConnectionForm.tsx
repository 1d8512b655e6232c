import { PlayIcon, PlusIcon, XIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import { Input, Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { ConnectionProtocol, ConnectionTestRequest } from "@/data/troubleshooting/troubleshooting-api";
import { CopyCommandMenu } from "@/pages/troubleshooting/CopyCommandMenu";

const PROTOCOLS: readonly ConnectionProtocol[] = ["tcp", "tls", "grpc", "grpcs", "http", "https"];

interface Header {
  key: string;
  value: string;
}

/** The request the form describes; headers only for http(s), empty optional fields left out. */
export function formRequest(f: {
  endpoint: string;
  protocol: ConnectionProtocol;
  timeout: string;
  serverName: string;
  caCert: string;
  headers: readonly Header[];
}): ConnectionTestRequest {
  const req: ConnectionTestRequest = { endpoint: f.endpoint.trim(), protocol: f.protocol };
  const timeout = Number(f.timeout);
  if (f.timeout.trim() && Number.isInteger(timeout)) req.timeout = timeout;
  if (f.serverName.trim()) req.server_name = f.serverName.trim();
  if (f.caCert.trim()) req.ca_cert = f.caCert.trim();
  if (f.protocol === "http" || f.protocol === "https") {
    const headers = Object.fromEntries(f.headers.filter((h) => h.key.trim()).map((h) => [h.key.trim(), h.value]));
    if (Object.keys(headers).length > 0) req.headers = headers;
  }
  return req;
}

/** The manual test: endpoint, protocol, timeout, server name, CA and (http(s)) headers. */
export function ConnectionForm({
  onRun,
  running,
}: {
  onRun: (req: ConnectionTestRequest) => void;
  running: boolean;
}): ReactElement {
  const [endpoint, setEndpoint] = useState("");
  const [protocol, setProtocol] = useState<ConnectionProtocol>("tcp");
  const [timeout, setTimeoutS] = useState("10");
  const [serverName, setServerName] = useState("");
  const [caCert, setCaCert] = useState("");
  const [headers, setHeaders] = useState<Header[]>([]);
  const [problem, setProblem] = useState<{ field: "endpoint" | "timeout"; message: string } | null>(null);
  const req = formRequest({ endpoint, protocol, timeout, serverName, caCert, headers });
  const http = protocol === "http" || protocol === "https";

  const submit = (): void => {
    if (!req.endpoint) return setProblem({ field: "endpoint", message: "Enter host:port or an http(s) URL" });
    const t = Number(timeout);
    if (timeout.trim() && (!Number.isInteger(t) || t < 1 || t > 30))
      return setProblem({ field: "timeout", message: "Between 1 and 30 seconds" });
    setProblem(null);
    onRun(req);
  };

  return (
    <form
      className="grid gap-4 md:grid-cols-2"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="grid gap-2">
        <Label htmlFor="tc-endpoint">Endpoint</Label>
        <Input
          id="tc-endpoint"
          placeholder="peer0.example.com:7051 or https://host/healthz"
          value={endpoint}
          aria-invalid={problem?.field === "endpoint" ? true : undefined}
          onChange={(e) => setEndpoint(e.target.value)}
        />
        <FieldError message={problem?.field === "endpoint" ? problem.message : undefined} />
      </div>
      <div className="grid grid-cols-2 gap-4">
        <div className="grid gap-2">
          <Label htmlFor="tc-protocol">Protocol</Label>
          <Select value={protocol} onValueChange={(v) => setProtocol(v as ConnectionProtocol)}>
            <SelectTrigger id="tc-protocol" aria-label="Protocol">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {PROTOCOLS.map((p) => (
                <SelectItem key={p} value={p}>
                  {p}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="tc-timeout">Timeout (s)</Label>
          <Input
            id="tc-timeout"
            type="number"
            min={1}
            max={30}
            value={timeout}
            aria-invalid={problem?.field === "timeout" ? true : undefined}
            onChange={(e) => setTimeoutS(e.target.value)}
          />
          <FieldError message={problem?.field === "timeout" ? problem.message : undefined} />
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="tc-server-name">Server name (optional)</Label>
        <Input
          id="tc-server-name"
          placeholder="Default: the endpoint's host"
          value={serverName}
          onChange={(e) => setServerName(e.target.value)}
        />
      </div>
      <div className="grid gap-2 md:row-span-2">
        <Label htmlFor="tc-ca">CA certificate (optional PEM)</Label>
        <Textarea
          id="tc-ca"
          rows={4}
          className="font-mono text-xs"
          placeholder="Default: the TLS CAs of this console's organizations"
          value={caCert}
          onChange={(e) => setCaCert(e.target.value)}
        />
      </div>
      {http && (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">Headers</legend>
          {headers.map((h, i) => (
            <div key={i} className="flex gap-2">
              <Input
                aria-label={`Header ${i + 1} name`}
                placeholder="Name"
                value={h.key}
                onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))}
              />
              <Input
                aria-label={`Header ${i + 1} value`}
                placeholder="Value"
                value={h.value}
                onChange={(e) => setHeaders(headers.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
              />
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={`Remove header ${i + 1}`}
                onClick={() => setHeaders(headers.filter((_, j) => j !== i))}
              >
                <XIcon />
              </Button>
            </div>
          ))}
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="w-fit"
            onClick={() => setHeaders([...headers, { key: "", value: "" }])}
          >
            <PlusIcon />
            Add header
          </Button>
        </fieldset>
      )}
      <div className="flex items-end gap-2 md:col-span-2">
        <Button type="submit" disabled={running}>
          <PlayIcon />
          Run test
        </Button>
        {req.endpoint && <CopyCommandMenu request={req} label="Copy command for this test" />}
      </div>
    </form>
  );
}

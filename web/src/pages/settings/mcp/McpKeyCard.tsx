import { KeyRoundIcon, Loader2Icon, ShieldAlertIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import type { Role } from "@/api/client";
import { CopyButton } from "@/components/CopyButton";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { RoleSelect } from "@/pages/users/RoleSelect";
import {
  MCP_KEY_EXPIRY,
  ROLE_REACH,
  defaultMcpKeyName,
  mcpKeyBody,
  rolesUpTo,
  validateMcpKeyForm,
  type McpKeyForm,
} from "@/pages/settings/mcp/mcp-config";

/** A key created on this screen; the secret lives only in the page's state. */
export interface CreatedMcpKey {
  id: number;
  name: string;
  role: Role;
  secret: string;
}

/** The secret, shown this once, with a copy button and a warning. */
export function McpKeySecret({ created, onDone }: { created: CreatedMcpKey; onDone: () => void }): ReactElement {
  return (
    <Card className="border-amber-500/40">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldAlertIcon className="size-5 text-amber-500" /> Copy your new key now
        </CardTitle>
        <CardDescription>
          This is the only time the key <strong>{created.name}</strong> ({created.role}) is shown. The configs below
          include it; if it is lost, revoke it under API Keys and create another.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid="mcp-key-secret"
          className="flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all"
        >
          {created.secret}
        </code>
        <CopyButton value={created.secret} label="Copy key" />
      </CardContent>
      <CardFooter className="justify-end">
        <Button type="button" variant="outline" onClick={onDone}>
          I have saved it
        </Button>
      </CardFooter>
    </Card>
  );
}

/** The form that creates an API key scoped for an MCP client: name, a role no wider than yours, expiry. */
export function McpKeyCreateForm({
  myRole,
  pending,
  onCreate,
  now = new Date(),
}: {
  myRole: Role;
  pending: boolean;
  onCreate: (body: ReturnType<typeof mcpKeyBody>) => void;
  now?: Date;
}): ReactElement {
  // A viewer key is the safe default: the assistant can look but not change anything.
  const [form, setForm] = useState<McpKeyForm>({ name: defaultMcpKeyName(now), role: "viewer", expires: "90d" });
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<McpKeyForm>): void => setForm((f) => ({ ...f, ...patch }));

  return (
    <Card>
      <form
        noValidate
        className="flex flex-col gap-5"
        onSubmit={(e) => {
          e.preventDefault();
          const problem = validateMcpKeyForm(form);
          setError(problem);
          if (!problem) onCreate(mcpKeyBody(form));
        }}
      >
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <KeyRoundIcon className="size-5" /> Create API key for MCP
          </CardTitle>
          <CardDescription>
            MCP clients sign in with an API key. The assistant acts as you, limited to the key&apos;s role.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="mcp-key-name">Name</Label>
            <Input
              id="mcp-key-name"
              value={form.name}
              maxLength={100}
              onChange={(e) => set({ name: e.target.value })}
            />
            <FieldError message={error ?? undefined} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="mcp-key-role">Role</Label>
              <RoleSelect
                id="mcp-key-role"
                value={form.role}
                onChange={(role) => set({ role })}
                options={rolesUpTo(myRole)}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="mcp-key-expiry">Expires</Label>
              <Select value={form.expires} onValueChange={(expires) => set({ expires })}>
                <SelectTrigger id="mcp-key-expiry" aria-label="Expires">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {MCP_KEY_EXPIRY.map((x) => (
                    <SelectItem key={x.value} value={x.value}>
                      {x.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>
          <ul className="grid gap-1 text-sm text-muted-foreground" aria-label="What each role gets">
            {rolesUpTo(myRole).map((r) => (
              <li key={r} className={r === form.role ? "text-foreground" : undefined}>
                <strong className="capitalize">{r}</strong>: {ROLE_REACH[r]}
              </li>
            ))}
          </ul>
        </CardContent>
        <CardFooter className="justify-end border-t pt-5">
          <Button type="submit" disabled={pending}>
            {pending && <Loader2Icon className="animate-spin" />}
            Create key
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

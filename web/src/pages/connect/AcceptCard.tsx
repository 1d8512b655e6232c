import { CheckCircle2Icon, Loader2Icon, LinkIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { DetailField, Mono } from "@/components/DetailField";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useFederationIdentityQuery } from "@/data/federation/identity-query";
import { useInvitationAcceptMutation } from "@/data/federation/invitation-accept-mutation";
import { formatDateTime } from "@/lib/utils";
import { readInvitation } from "@/pages/connect/federation-view";

/**
 * Accepts another console's invitation. Shows who issued it before sending, and the server's answer
 * (success, or why it was refused: altered, expired, already used, unreachable) after.
 */
export function AcceptCard(): ReactElement {
  const identity = useFederationIdentityQuery();
  const accept = useInvitationAcceptMutation();
  const [jwt, setJwt] = useState("");
  const [localError, setLocalError] = useState<string | undefined>();
  const claims = jwt.trim() ? readInvitation(jwt) : undefined;
  const noEndpoint = identity.data !== undefined && !identity.data.endpoint;

  const submit = (): void => {
    if (!jwt.trim()) {
      setLocalError("Paste the invitation you received");
      return;
    }
    setLocalError(undefined);
    accept.mutate(jwt.trim(), { onSuccess: () => setJwt("") });
  };

  return (
    <Card>
      <form
        noValidate
        className="flex flex-col gap-5"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <CardHeader>
          <CardTitle>Accept invitation</CardTitle>
          <CardDescription>
            Paste an invitation from another console. Accepting registers each console with the other.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="accept-jwt">Invitation JWT</Label>
            <Textarea
              id="accept-jwt"
              rows={4}
              value={jwt}
              className="font-mono text-xs break-all"
              placeholder="eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9…"
              aria-invalid={localError ? true : undefined}
              onChange={(e) => {
                setJwt(e.target.value);
                if (accept.isError || accept.isSuccess) accept.reset();
              }}
            />
            <FieldError message={localError} />
          </div>
          {claims && (
            <dl className="grid gap-3 rounded-lg border bg-muted/40 p-3 sm:grid-cols-3" aria-label="Invitation details">
              <DetailField label="From">
                <Mono>{claims.issuer}</Mono>
              </DetailField>
              <DetailField label="Endpoint">
                <Mono>{claims.endpoint}</Mono>
              </DetailField>
              <DetailField label="Expires">{formatDateTime(claims.expiresAt.toISOString())}</DetailField>
            </dl>
          )}
          {jwt.trim() && !claims && (
            <p className="text-xs text-muted-foreground">
              This does not look like an invitation; the server will check it.
            </p>
          )}
          {accept.isError && (
            <p
              role="alert"
              className="rounded-lg border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
            >
              {accept.error.message || "The invitation was refused."}
            </p>
          )}
          {accept.isSuccess && (
            <p
              role="status"
              className="flex items-start gap-2 rounded-lg border border-success/40 bg-success/10 px-3 py-2 text-sm"
            >
              <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" />
              {accept.data.message}
            </p>
          )}
        </CardContent>
        <CardFooter className="justify-end gap-3 border-t pt-5">
          {noEndpoint && <span className="text-xs text-muted-foreground">Set an endpoint first.</span>}
          <Button type="submit" disabled={accept.isPending || noEndpoint}>
            {accept.isPending ? <Loader2Icon className="animate-spin" /> : <LinkIcon />}
            Accept invitation
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

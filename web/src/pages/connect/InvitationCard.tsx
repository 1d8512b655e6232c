import { Loader2Icon, TicketIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { CopyButton } from "@/components/CopyButton";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useFederationIdentityQuery } from "@/data/federation/identity-query";
import { useInvitationGenerateMutation } from "@/data/federation/invitation-generate-mutation";
import { formatDateTime } from "@/lib/utils";
import { InvitationQr } from "@/pages/connect/InvitationQr";
import { MAX_EXPIRY_HOURS, MIN_EXPIRY_HOURS, parseExpiryHours, readInvitation } from "@/pages/connect/federation-view";

/** Generates a one-time invitation and shows it as text (with copy) and as a QR code. */
export function InvitationCard(): ReactElement {
  const identity = useFederationIdentityQuery();
  const generate = useInvitationGenerateMutation();
  const [hours, setHours] = useState("24");
  const [bidirectional, setBidirectional] = useState(true);
  const [error, setError] = useState<string | undefined>();
  const noEndpoint = identity.data !== undefined && !identity.data.endpoint;
  const jwt = generate.data;
  const claims = jwt ? readInvitation(jwt) : undefined;

  const submit = (): void => {
    const parsed = parseExpiryHours(hours);
    if ("error" in parsed) {
      setError(parsed.error);
      return;
    }
    setError(undefined);
    generate.mutate({ expiresInHours: parsed.hours, bidirectional });
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
          <CardTitle>Generate invitation</CardTitle>
          <CardDescription>
            A signed, one-time invitation for another console. Whoever accepts it connects both consoles, so send it
            only to the operator you mean to connect with.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-2 sm:max-w-48">
            <Label htmlFor="invitation-expiry">Expires in (hours)</Label>
            <Input
              id="invitation-expiry"
              inputMode="numeric"
              value={hours}
              aria-invalid={error ? true : undefined}
              onChange={(e) => setHours(e.target.value)}
            />
            <p className="text-xs text-muted-foreground">
              {MIN_EXPIRY_HOURS} to {MAX_EXPIRY_HOURS} hours.
            </p>
            <FieldError message={error} />
          </div>
          <label className="flex items-center gap-2 text-sm font-medium">
            <input
              type="checkbox"
              className="size-4 accent-[var(--primary)]"
              checked={bidirectional}
              onChange={(e) => setBidirectional(e.target.checked)}
            />
            Bidirectional (both consoles may sync each other&apos;s nodes)
          </label>
          {jwt && (
            <div className="grid gap-4 border-t pt-4 md:grid-cols-[1fr_auto]" data-testid="invitation-result">
              <div className="grid content-start gap-2">
                <Label htmlFor="invitation-jwt">Invitation</Label>
                <Textarea id="invitation-jwt" readOnly rows={6} value={jwt} className="font-mono text-xs break-all" />
                <div className="flex flex-wrap items-center gap-3">
                  <CopyButton value={jwt} label="Copy invitation" />
                  {claims && (
                    <span className="text-xs text-muted-foreground">
                      Expires {formatDateTime(claims.expiresAt.toISOString())}; it works once.
                    </span>
                  )}
                </div>
              </div>
              <InvitationQr value={jwt} />
            </div>
          )}
        </CardContent>
        <CardFooter className="justify-end gap-3 border-t pt-5">
          {noEndpoint && <span className="text-xs text-muted-foreground">Set an endpoint first.</span>}
          <Button type="submit" disabled={generate.isPending || noEndpoint}>
            {generate.isPending ? <Loader2Icon className="animate-spin" /> : <TicketIcon />}
            Generate invitation
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

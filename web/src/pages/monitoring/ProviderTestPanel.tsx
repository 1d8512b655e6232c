import { useState, type ReactElement } from "react";
import { FormSection } from "@/components/FormSection";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { NotificationProvider, ProviderTestResult } from "@/data/notification-providers/keys";
import { useProviderTestMutation } from "@/data/notification-providers/provider-test-mutation";

/** "success" / "failure" / never tested, as a badge. */
export function TestStatusBadge({ status }: { status: NotificationProvider["lastTestStatus"] }): ReactElement {
  if (status === "success") return <Badge variant="success">Test passed</Badge>;
  if (status === "failure") return <Badge variant="destructive">Test failed</Badge>;
  return <Badge variant="outline">Not tested</Badge>;
}

/**
 * Send test: a test email (to the address typed here) or a signed test webhook, with its result and
 * the provider's last test status. The button is for operators only.
 */
export function ProviderTestPanel({
  provider,
  canTest,
}: {
  provider: NotificationProvider;
  canTest: boolean;
}): ReactElement {
  const [testEmail, setTestEmail] = useState("");
  const [result, setResult] = useState<ProviderTestResult | undefined>();
  const test = useProviderTestMutation();
  const smtp = provider.type === "SMTP";
  return (
    <FormSection title="Send test" description="Sends a test notification through this provider now.">
      <div className="flex items-center gap-2 text-sm" data-testid="last-test">
        <span className="text-muted-foreground">Last test:</span>
        <TestStatusBadge status={provider.lastTestStatus} />
        {provider.lastTestAt ? (
          <span className="text-muted-foreground">{new Date(provider.lastTestAt).toLocaleString()}</span>
        ) : null}
      </div>
      {provider.lastTestMessage ? (
        <p className="break-all text-xs text-muted-foreground">{provider.lastTestMessage}</p>
      ) : null}
      {canTest ? (
        <>
          {smtp ? (
            <div className="flex flex-col gap-1">
              <Label htmlFor="provider-test-email">Test email</Label>
              <Input
                id="provider-test-email"
                type="email"
                value={testEmail}
                placeholder="you@example.com"
                onChange={(e) => setTestEmail(e.target.value)}
              />
            </div>
          ) : null}
          <div>
            <Button
              variant="outline"
              disabled={test.isPending || (smtp && !testEmail.trim())}
              onClick={() =>
                test.mutate(
                  { id: provider.id, ...(smtp ? { testEmail: testEmail.trim() } : {}) },
                  { onSuccess: setResult },
                )
              }
            >
              {test.isPending ? "Sending…" : "Send test"}
            </Button>
          </div>
          {result ? (
            <p
              role="status"
              data-testid="test-result"
              className={
                result.status === "success" ? "break-all text-sm text-success" : "break-all text-sm text-destructive"
              }
            >
              {result.status === "success" ? "Success: " : "Failed: "}
              {result.message}
            </p>
          ) : null}
        </>
      ) : null}
    </FormSection>
  );
}

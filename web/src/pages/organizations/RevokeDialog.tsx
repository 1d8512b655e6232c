import { Loader2Icon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input, Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCertificateRevokeMutation } from "@/data/organizations/certificate-revoke-mutation";
import { fieldErrorsOf } from "@/lib/field-errors";
import { showToast } from "@/lib/toast";
import { normalizeSerial, REVOCATION_REASONS } from "@/pages/organizations/organization-form";
import { PublishCrlPanel } from "@/pages/organizations/PublishCrlPanel";

/**
 * Revokes a certificate issued by the organization, by hex serial or by pasting its PEM. Opened
 * from an identity row, it comes with that identity's serial filled in.
 */
export function RevokeDialog({
  organizationId,
  serial,
  subject,
  onClose,
}: {
  organizationId: number;
  serial?: string;
  subject?: string;
  onClose: () => void;
}): ReactElement {
  const revoke = useCertificateRevokeMutation();
  const [mode, setMode] = useState<"serial" | "pem">("serial");
  const [serialText, setSerialText] = useState(serial ?? "");
  const [pem, setPem] = useState("");
  const [reason, setReason] = useState("0");
  const [error, setError] = useState<string | undefined>();
  // After a revocation the dialog offers to publish the CRL: it does not reach channels by itself.
  const [revoked, setRevoked] = useState<string | undefined>();

  const submit = (): void => {
    setError(undefined);
    const revocationReason = Number(reason);
    if (mode === "serial") {
      const s = normalizeSerial(serialText);
      if (!/^[0-9a-f]+$/.test(s)) return setError("Enter the serial number in hex, e.g. 687d92927face380");
      revoke.mutate(
        { organizationId, serialNumber: s, revocationReason },
        {
          onSuccess: () => {
            showToast("success", "Certificate revoked", { description: `Serial ${s} is on the organization's CRL.` });
            setRevoked(`Serial ${s} is on the organization's CRL.`);
          },
          onError: (e) => setError(fieldErrorsOf(e).serialNumber),
        },
      );
    } else {
      if (!pem.includes("BEGIN CERTIFICATE")) return setError("Paste a PEM certificate (-----BEGIN CERTIFICATE-----)");
      revoke.mutate(
        { organizationId, certificate: pem.trim(), revocationReason },
        {
          onSuccess: (r) => {
            showToast("success", "Certificate revoked", { description: r.message });
            setRevoked(r.message);
          },
          onError: (e) => setError(fieldErrorsOf(e).certificate),
        },
      );
    }
  };

  if (revoked) {
    return (
      <Dialog open onOpenChange={(v) => !v && onClose()}>
        <DialogContent className="sm:max-w-lg">
          <DialogHeader>
            <DialogTitle>Publish the CRL to channels?</DialogTitle>
            <DialogDescription>{revoked}</DialogDescription>
          </DialogHeader>
          <PublishCrlPanel organizationId={organizationId} onDone={onClose} doneLabel="Not now" />
        </DialogContent>
      </Dialog>
    );
  }

  return (
    <Dialog open onOpenChange={(v) => !v && !revoke.isPending && onClose()}>
      <DialogContent className="sm:max-w-lg">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
          noValidate
          className="grid gap-4"
        >
          <DialogHeader>
            <DialogTitle>Revoke certificate</DialogTitle>
            <DialogDescription>
              {subject
                ? `${subject} goes on the organization's CRL. Channels reject it once that CRL is published to them.`
                : "The certificate goes on the organization's CRL. Channels reject it once that CRL is published to them."}
            </DialogDescription>
          </DialogHeader>
          <Tabs value={mode} onValueChange={(v) => setMode(v as "serial" | "pem")}>
            <TabsList className="w-full">
              <TabsTrigger value="serial">By serial number</TabsTrigger>
              <TabsTrigger value="pem">By PEM</TabsTrigger>
            </TabsList>
            <TabsContent value="serial" className="mt-4 grid gap-2">
              <Label htmlFor="revoke-serial">Serial number (hex)</Label>
              <Input
                id="revoke-serial"
                className="font-mono"
                value={serialText}
                onChange={(e) => setSerialText(e.target.value)}
                placeholder="687d92927face3808dd8fe8db5833719"
              />
            </TabsContent>
            <TabsContent value="pem" className="mt-4 grid gap-2">
              <Label htmlFor="revoke-pem">Certificate (PEM)</Label>
              <Textarea
                id="revoke-pem"
                rows={6}
                value={pem}
                onChange={(e) => setPem(e.target.value)}
                placeholder="-----BEGIN CERTIFICATE-----"
              />
            </TabsContent>
          </Tabs>
          <FieldError message={error} />
          <div className="grid content-start gap-2">
            <Label htmlFor="revoke-reason">Reason</Label>
            <Select value={reason} onValueChange={setReason}>
              <SelectTrigger id="revoke-reason" aria-label="Reason">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {REVOCATION_REASONS.map((r) => (
                  <SelectItem key={r.code} value={String(r.code)}>
                    {r.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={revoke.isPending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={revoke.isPending}>
              {revoke.isPending && <Loader2Icon className="animate-spin" />}
              Revoke certificate
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

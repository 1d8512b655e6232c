import QRCode from "qrcode";
import { useEffect, useState, type ReactElement } from "react";
import { Skeleton } from "@/components/ui/skeleton";

/**
 * The invitation as a QR code (a PNG data URL drawn by `qrcode`), for carrying it to another
 * console's screen by phone. Low error correction keeps a ~700-character JWT at a scannable size.
 */
export function InvitationQr({ value }: { value: string }): ReactElement {
  const [qr, setQr] = useState<{ value: string; url?: string; failed?: boolean }>({ value: "" });
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(value, { errorCorrectionLevel: "L", margin: 1, width: 240 }).then(
      (url) => live && setQr({ value, url }),
      () => live && setQr({ value, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [value]);
  if (qr.value !== value) return <Skeleton className="size-60" aria-label="Drawing QR code" />;
  if (qr.failed || !qr.url)
    return <p className="text-sm text-muted-foreground">The invitation is too long for a QR code.</p>;
  return <img src={qr.url} alt="Invitation QR code" className="size-60 rounded-md border bg-white" />;
}

import { DownloadIcon } from "lucide-react";
import type { ReactElement } from "react";
import { CopyButton } from "@/components/CopyButton";
import { Button } from "@/components/ui/button";

/** Starts a browser download of text content. */
export function downloadText(filename: string, text: string, type = "application/x-pem-file"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A PEM (or JSON) text block with copy and, when a file name is given, download. */
export function PemBlock({
  value,
  label,
  filename,
  maxHeight = "max-h-64",
}: {
  value: string;
  label: string;
  filename?: string;
  maxHeight?: string;
}): ReactElement {
  return (
    <div className="overflow-hidden rounded-lg border">
      <div className="flex items-center justify-between gap-2 border-b bg-muted/50 px-3 py-2">
        <span className="text-xs font-medium text-muted-foreground">{label}</span>
        <div className="flex gap-2">
          <CopyButton value={value} label="Copy" />
          {filename && (
            <Button type="button" variant="outline" size="sm" onClick={() => downloadText(filename, value)}>
              <DownloadIcon /> Download
            </Button>
          )}
        </div>
      </div>
      <pre className={`${maxHeight} overflow-auto p-3 font-mono text-xs leading-relaxed`}>{value}</pre>
    </div>
  );
}

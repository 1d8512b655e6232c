import { FileUpIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Button } from "@/components/ui/button";

/** A "Choose file" button that hands the file to `onFile`. */
export function FileButton({ accept, onFile }: { accept: string; onFile: (f: File) => void }): ReactElement {
  return (
    <Button variant="outline" size="sm" asChild>
      <label className="cursor-pointer">
        <FileUpIcon /> Choose file
        <input
          type="file"
          accept={accept}
          className="sr-only"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) onFile(file);
            e.target.value = "";
          }}
        />
      </label>
    </Button>
  );
}

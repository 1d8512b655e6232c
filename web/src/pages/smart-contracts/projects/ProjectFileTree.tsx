import { ChevronDownIcon, ChevronRightIcon, FileIcon, FolderIcon, Loader2Icon } from "lucide-react";
import { useState, type FormEvent, type ReactElement } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import type { TreeNode } from "@/data/projects/types";
import { errorMessage } from "@/lib/utils";

/** The project's file tree: folders fold, a file opens in the editor. */
export function Tree({
  node,
  open,
  selected,
  onOpen,
  onSelectDir,
  selectedDir,
}: {
  node: TreeNode;
  open: string | undefined;
  selected: string | undefined;
  onOpen: (path: string) => void;
  onSelectDir: (path: string) => void;
  selectedDir: string;
}): ReactElement {
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});
  const render = (n: TreeNode, depth: number): ReactElement[] =>
    (n.children ?? []).flatMap((c) => {
      const pad = { paddingLeft: `${depth * 0.75 + 0.25}rem` };
      if (c.isDir) {
        const isCollapsed = collapsed[c.path] ?? false;
        return [
          <button
            key={c.path}
            type="button"
            style={pad}
            onClick={() => {
              setCollapsed({ ...collapsed, [c.path]: !isCollapsed });
              onSelectDir(c.path);
            }}
            className={`flex w-full items-center gap-1 rounded py-0.5 text-left text-sm ${selectedDir === c.path ? "bg-muted" : "hover:bg-muted/50"}`}
          >
            {isCollapsed ? <ChevronRightIcon className="size-3" /> : <ChevronDownIcon className="size-3" />}
            <FolderIcon className="size-3.5 text-muted-foreground" /> {c.name}
          </button>,
          ...(isCollapsed ? [] : render(c, depth + 1)),
        ];
      }
      return [
        <button
          key={c.path}
          type="button"
          style={pad}
          aria-current={open === c.path ? "true" : undefined}
          onClick={() => onOpen(c.path)}
          className={`flex w-full items-center gap-1 truncate rounded py-0.5 text-left text-sm ${open === c.path ? "bg-primary/10 font-medium" : selected === c.path ? "bg-muted" : "hover:bg-muted/50"}`}
        >
          <FileIcon className="ml-4 size-3.5 shrink-0 text-muted-foreground" /> {c.name}
        </button>,
      ];
    });
  return <nav aria-label="Project files">{render(node, 0)}</nav>;
}

/** Asks for a name (new file, new folder, rename). */
export function NameDialog({
  title,
  initial,
  onSubmit,
  onClose,
}: {
  title: string;
  initial: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}): ReactElement {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    try {
      await onSubmit(name);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(v) => !v && onClose()}>
      <DialogContent>
        <form onSubmit={(e) => void submit(e)} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="entry-name">Path</Label>
            <Input id="entry-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          </div>
          <FieldError message={error} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy && <Loader2Icon className="animate-spin" />} OK
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

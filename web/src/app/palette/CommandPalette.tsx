import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useQueries } from "@tanstack/react-query";
import { ArrowRightIcon } from "lucide-react";
import { useEffect, useMemo, useState, type ReactElement } from "react";
import { useNavigate } from "react-router";
import { DYNAMIC_SOURCES } from "@/app/palette/dynamic-sources";
import { STATIC_ITEMS, statusDotClass, type PaletteItem } from "@/app/palette/palette-items";
import { groupByCategory, searchPalette } from "@/app/palette/palette-search";
import { isRoleAllowed } from "@/app/roles";
import { Command, CommandEmpty, CommandGroup, CommandInput, CommandItem, CommandList } from "@/components/ui/command";
import { overlayClass } from "@/components/ui/dialog";
import { useMeQuery } from "@/data/auth/me-query";
import { cn } from "@/lib/utils";

/** Ctrl/Cmd+K opens it; `open`/`onOpenChange` let the header's search button open it too. */
export function CommandPalette({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (v: boolean) => void;
}): ReactElement {
  const navigate = useNavigate();
  const me = useMeQuery();
  const [query, setQuery] = useState("");

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key.toLowerCase() === "k" && (e.metaKey || e.ctrlKey)) {
        e.preventDefault();
        onOpenChange(!open);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open, onOpenChange]);

  const role = me.data?.role;
  // Dynamic entries are fetched only while the palette is open, and only those the role may list.
  const dynamic = useQueries({
    queries: DYNAMIC_SOURCES.map((s) => ({
      queryKey: ["palette", s.key],
      queryFn: s.fetch,
      enabled: open && isRoleAllowed(role, s.roles ? { allowed: s.roles } : {}),
    })),
  });
  const dynamicItems = useMemo(() => dynamic.flatMap((q) => q.data ?? []), [dynamic]);

  const items = useMemo(
    () => [...STATIC_ITEMS, ...dynamicItems].filter((i) => isRoleAllowed(role, i.roles ? { allowed: i.roles } : {})),
    [dynamicItems, role],
  );
  const groups = groupByCategory(searchPalette(items, query));

  const go = (item: PaletteItem): void => {
    onOpenChange(false);
    setQuery("");
    void navigate(item.href);
  };

  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClass} />
        <DialogPrimitive.Content
          aria-label="Command palette"
          className="fixed top-[12vh] left-1/2 z-50 w-[calc(100%-2rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-xl border shadow-2xl"
        >
          <DialogPrimitive.Title className="sr-only">Command palette</DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">Search pages and resources</DialogPrimitive.Description>
          <Command shouldFilter={false} loop>
            <CommandInput placeholder="Type a command or search..." value={query} onValueChange={setQuery} />
            <CommandList>
              <CommandEmpty>No results found.</CommandEmpty>
              {groups.map(([group, list]) => (
                <CommandGroup key={group} heading={group}>
                  {list.map((i) => (
                    <CommandItem key={i.id} value={i.id} onSelect={() => go(i)}>
                      {i.status !== undefined ? (
                        <span className={cn("size-2 shrink-0 rounded-full", statusDotClass(i.status))} />
                      ) : (
                        <ArrowRightIcon />
                      )}
                      <span className="flex min-w-0 flex-1 items-baseline gap-2">
                        <span className="truncate">{i.label}</span>
                        {i.description && (
                          <span className="truncate text-xs text-muted-foreground">{i.description}</span>
                        )}
                      </span>
                      {i.status !== undefined && <span className="text-xs text-muted-foreground">{i.status}</span>}
                    </CommandItem>
                  ))}
                </CommandGroup>
              ))}
            </CommandList>
          </Command>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

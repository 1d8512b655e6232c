import { KeyRoundIcon, PlusIcon } from "lucide-react";
import type { ReactElement } from "react";
import { Mono } from "@/components/DetailField";
import { EmptyState, QueryState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { useKeysQuery } from "@/data/keys/keys-query";
import { cn } from "@/lib/utils";
import { KeyCreateDialog } from "@/pages/keys/KeyCreateDialog";

/** Lists secp256k1 keys as validator choices, with an inline "create validator key" action. */
export function ValidatorPicker({
  value,
  onChange,
  invalid,
}: {
  value: number[];
  onChange: (ids: number[]) => void;
  invalid?: boolean;
}): ReactElement {
  const keys = useKeysQuery({ page: 1, pageSize: 1000, algorithm: "EC", curve: "secp256k1" });
  const toggle = (id: number): void => onChange(value.includes(id) ? value.filter((v) => v !== id) : [...value, id]);
  const createButton = (
    <KeyCreateDialog
      preset={{ algorithm: "EC", curve: "secp256k1" }}
      onCreated={(k) => onChange([...value, k.id])}
      trigger={
        <Button type="button" variant="outline" size="sm">
          <PlusIcon /> Create validator key
        </Button>
      }
    />
  );
  return (
    <div className={cn("overflow-hidden rounded-lg border", invalid && "border-destructive")}>
      <div className="flex items-center justify-between gap-2 border-b bg-muted/40 px-3 py-2">
        <span className="text-xs text-muted-foreground">
          {value.length} selected · QBFT tolerates ⌊(n−1)/3⌋ faulty validators
        </span>
        {createButton}
      </div>
      <QueryState
        query={keys}
        loading={<p className="p-4 text-sm text-muted-foreground">Loading keys…</p>}
        isEmpty={(d) => d.items.length === 0}
        empty={
          <EmptyState
            icon={KeyRoundIcon}
            title="No secp256k1 keys yet"
            description="Validators sign blocks with secp256k1 keys. Create one to get started."
          />
        }
      >
        {(d) => (
          <ul className="max-h-72 divide-y overflow-y-auto" aria-label="Validator keys">
            {d.items.map((k) => (
              <li key={k.id}>
                <label className="flex cursor-pointer items-center gap-3 px-3 py-2.5 hover:bg-muted/40">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={value.includes(k.id)}
                    onChange={() => toggle(k.id)}
                    aria-label={k.name}
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block text-sm font-medium">{k.name}</span>
                    <Mono className="text-muted-foreground">{k.ethereumAddress}</Mono>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </div>
  );
}

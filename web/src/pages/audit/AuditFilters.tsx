import { XIcon } from "lucide-react";
import type { ReactElement } from "react";
import type { AuditFilters as Filters } from "@/data/audit/keys";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

export const EVENT_TYPE_OPTIONS = [
  "auth.login",
  "auth.logout",
  "auth.password_change",
  "permission.denied",
  "user.create",
  "user.update",
  "user.delete",
  "api_key.create",
  "api_key.revoke",
  "settings.update",
] as const;

const ANY = "any";

/** Converts a datetime-local value to an ISO string (the API's `start`/`end`). */
function toIso(v: string): string | undefined {
  if (!v) return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function toLocal(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const off = d.getTimezoneOffset() * 60_000;
  return new Date(d.getTime() - off).toISOString().slice(0, 16);
}

export function AuditFilters({ value, onChange }: { value: Filters; onChange: (f: Filters) => void }): ReactElement {
  const set = (patch: Partial<Filters>): void => {
    const next: Filters = { ...value, ...patch, page: 1 };
    for (const k of Object.keys(next) as (keyof Filters)[]) if (next[k] === undefined) delete next[k];
    onChange(next);
  };
  const active = Boolean(value.event_type || value.event_outcome || value.start || value.end || value.user_id);
  return (
    <div className="grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-[1fr_10rem_1fr_1fr_7rem_auto] lg:items-end">
      <div className="grid gap-1.5">
        <Label htmlFor="f-type">Event type</Label>
        <Select value={value.event_type ?? ANY} onValueChange={(v) => set({ event_type: v === ANY ? undefined : v })}>
          <SelectTrigger id="f-type" aria-label="Event type">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ANY}>All event types</SelectItem>
            {EVENT_TYPE_OPTIONS.map((t) => (
              <SelectItem key={t} value={t}>
                {t}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="f-outcome">Outcome</Label>
        <Select
          value={value.event_outcome ?? ANY}
          onValueChange={(v) => set({ event_outcome: v === ANY ? undefined : (v as "SUCCESS" | "FAILURE") })}
        >
          <SelectTrigger id="f-outcome" aria-label="Outcome">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ANY}>Any outcome</SelectItem>
            <SelectItem value="SUCCESS">Success</SelectItem>
            <SelectItem value="FAILURE">Failure</SelectItem>
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="f-start">From</Label>
        <Input
          id="f-start"
          type="datetime-local"
          value={toLocal(value.start)}
          onChange={(e) => set({ start: toIso(e.target.value) })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="f-end">To</Label>
        <Input
          id="f-end"
          type="datetime-local"
          value={toLocal(value.end)}
          onChange={(e) => set({ end: toIso(e.target.value) })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="f-user">User ID</Label>
        <Input
          id="f-user"
          type="number"
          min={1}
          value={value.user_id ?? ""}
          onChange={(e) => set({ user_id: e.target.value ? Number(e.target.value) : undefined })}
        />
      </div>
      <Button
        variant="ghost"
        disabled={!active}
        onClick={() => onChange({ page: 1, page_size: value.page_size })}
        className="justify-self-start"
      >
        <XIcon /> Clear
      </Button>
    </div>
  );
}

import type { ReactElement } from "react";
import { Label } from "@/components/ui/label";

/** A labelled native select of numeric choices (the charts' time range and auto refresh). */
export function OptionSelect(props: {
  id: string;
  label: string;
  /** Keep the label for screen readers only (a card header with no room for it). */
  hideLabel?: boolean;
  value: number;
  options: readonly { label: string; value: number }[];
  onChange: (value: number) => void;
}): ReactElement {
  return (
    <div className="space-y-1">
      <Label htmlFor={props.id} className={props.hideLabel ? "sr-only" : undefined}>
        {props.label}
      </Label>
      <select
        id={props.id}
        className="h-9 rounded-md border bg-transparent px-3 text-sm"
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value))}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

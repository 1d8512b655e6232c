import { PanelLeftCloseIcon, PanelLeftOpenIcon, PanelRightCloseIcon, PanelRightOpenIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Button } from "@/components/ui/button";

/** Which side panels of the project editor are open; kept in the browser across visits. */
export interface EditorPanels {
  files: boolean;
  calls: boolean;
}

const STORAGE_KEY = "chainlaunch.projectEditor.panels";

function stored(): EditorPanels {
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as Partial<EditorPanels>;
    return { files: v.files !== false, calls: v.calls !== false };
  } catch {
    return { files: true, calls: true };
  }
}

/** The panels' state and a toggle that remembers it. */
export function useEditorPanels(): [EditorPanels, (panel: keyof EditorPanels) => void] {
  const [panels, setPanels] = useState<EditorPanels>(stored);
  const toggle = (panel: keyof EditorPanels): void =>
    setPanels((p) => {
      const next = { ...p, [panel]: !p[panel] };
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Storage may be full or off; the panels still toggle for this visit.
      }
      return next;
    });
  return [panels, toggle];
}

/**
 * The editor's columns at xl widths: a closed panel becomes a 2.5rem rail, so the code pane takes
 * its room (with both open it was about 500 px wide at 1440 px). Literal strings, for Tailwind.
 */
export function editorColumns(p: EditorPanels): string {
  if (p.files && p.calls) return "xl:grid-cols-[14rem_minmax(0,1fr)_20rem]";
  if (p.files) return "xl:grid-cols-[14rem_minmax(0,1fr)_2.5rem]";
  if (p.calls) return "xl:grid-cols-[2.5rem_minmax(0,1fr)_20rem]";
  return "xl:grid-cols-[2.5rem_minmax(0,1fr)_2.5rem]";
}

const LABELS = { files: "files", calls: "call panel" } as const;

/** The button in an open panel's header that closes it. */
export function HidePanelButton({
  panel,
  onToggle,
}: {
  panel: keyof EditorPanels;
  onToggle: (panel: keyof EditorPanels) => void;
}): ReactElement {
  return (
    <Button size="icon-sm" variant="ghost" aria-label={`Hide ${LABELS[panel]}`} onClick={() => onToggle(panel)}>
      {panel === "files" ? <PanelLeftCloseIcon /> : <PanelRightCloseIcon />}
    </Button>
  );
}

/** A closed panel: a narrow rail whose button opens it again. */
export function PanelRail({
  panel,
  onToggle,
}: {
  panel: keyof EditorPanels;
  onToggle: (panel: keyof EditorPanels) => void;
}): ReactElement {
  return (
    <div className="flex justify-center rounded-xl border bg-card py-2" data-testid={`rail-${panel}`}>
      <Button size="icon-sm" variant="ghost" aria-label={`Show ${LABELS[panel]}`} onClick={() => onToggle(panel)}>
        {panel === "files" ? <PanelLeftOpenIcon /> : <PanelRightOpenIcon />}
      </Button>
    </div>
  );
}

import Editor, { loader, type OnMount } from "@monaco-editor/react";
import * as monaco from "monaco-editor/esm/vs/editor/editor.api";
// Editor features (find, folding, bracket matching, …) and the syntax of the languages projects use;
// bundled with the app, since no CDN can be reached.
import "monaco-editor/esm/vs/editor/editor.all.js";
import "monaco-editor/esm/vs/basic-languages/typescript/typescript.contribution";
import "monaco-editor/esm/vs/basic-languages/javascript/javascript.contribution";
import "monaco-editor/esm/vs/basic-languages/go/go.contribution";
import "monaco-editor/esm/vs/basic-languages/markdown/markdown.contribution";
import "monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution";
import EditorWorker from "monaco-editor/esm/vs/editor/editor.worker?worker";
import { useEffect, useRef, type ReactElement } from "react";
import { useTheme } from "@/app/theme/ThemeProvider";
import { languageOf } from "@/components/code-editor/language";

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };
loader.config({ monaco });

export interface EditorMarker {
  line: number;
  column: number;
  message: string;
}

/** Monaco for one file: the language from its name, Ctrl/Cmd+S to save, compiler markers, and a line to reveal. */
export function CodeEditor({
  path,
  value,
  onChange,
  onSave,
  markers = [],
  reveal,
  readOnly = false,
}: {
  path: string;
  value: string;
  onChange: (v: string) => void;
  onSave: () => void;
  markers?: EditorMarker[];
  reveal?: { line: number; column: number; at: number };
  readOnly?: boolean;
}): ReactElement {
  const { resolved } = useTheme();
  const save = useRef(onSave);
  save.current = onSave;
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const mount: OnMount = (editor) => {
    editorRef.current = editor;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => save.current());
  };
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      "build",
      markers.map((m) => ({
        startLineNumber: m.line,
        startColumn: m.column,
        endLineNumber: m.line,
        endColumn: model.getLineMaxColumn(Math.min(m.line, model.getLineCount())),
        message: m.message,
        severity: monaco.MarkerSeverity.Error,
      })),
    );
  }, [markers, path]);
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || !reveal) return;
    editor.revealLineInCenter(reveal.line);
    editor.setPosition({ lineNumber: reveal.line, column: reveal.column });
    editor.focus();
  }, [reveal]);
  return (
    <Editor
      path={path}
      language={languageOf(path)}
      value={value}
      theme={resolved === "dark" ? "vs-dark" : "vs"}
      onChange={(v) => onChange(v ?? "")}
      onMount={mount}
      options={{
        minimap: { enabled: false },
        fontSize: 13,
        automaticLayout: true,
        scrollBeyondLastLine: false,
        readOnly,
        tabSize: 2,
      }}
    />
  );
}

import { Loader2Icon } from "lucide-react";
import { useEffect, useState, type ReactElement } from "react";
import type { SettingConfig } from "@/api/client";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Textarea } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useSettingsUpdateMutation } from "@/data/settings/settings-update-mutation";
import { showToast } from "@/lib/toast";
import { invalidRegistry, parseRegistries } from "@/pages/settings/plugin-registries";

/** The plugin registries (HTTP indexes) whose plugins the Plugins screen lists beside the built-in catalogue. */
export function PluginRegistriesCard({ config }: { config: SettingConfig }): ReactElement {
  const save = useSettingsUpdateMutation();
  const initial = (config.pluginRegistries ?? []).join("\n");
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => setText(initial), [initial]);

  const submit = (): void => {
    const urls = parseRegistries(text);
    const bad = invalidRegistry(urls);
    if (bad) {
      setError(`'${bad}' is not an http(s) URL`);
      return;
    }
    setError(undefined);
    save.mutate({ ...config, pluginRegistries: urls }, { onSuccess: () => showToast("success", "Settings saved") });
  };

  return (
    <Card>
      <form
        noValidate
        className="flex flex-col gap-5"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <CardHeader>
          <CardTitle>Plugin registries</CardTitle>
          <CardDescription>
            HTTP indexes of plugin YAMLs, listed under Available on the Plugins screen beside the built-in catalogue. An
            index is JSON: {"{"}&quot;plugins&quot;: [{"{"}&quot;name&quot;, &quot;url&quot;{"}"}]{"}"}.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2">
          <Label htmlFor="pluginRegistries">Registry URLs (one per line)</Label>
          <Textarea
            id="pluginRegistries"
            rows={3}
            value={text}
            aria-invalid={error ? true : undefined}
            placeholder="https://plugins.example.com/index.json"
            onChange={(e) => setText(e.target.value)}
          />
          <FieldError message={error} />
        </CardContent>
        <CardFooter className="justify-end border-t pt-5">
          <Button type="submit" disabled={save.isPending || text === initial}>
            {save.isPending && <Loader2Icon className="animate-spin" />}
            Save registries
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

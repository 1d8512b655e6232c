import { Loader2Icon } from "lucide-react";
import type { ReactElement } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useChangePasswordMutation } from "@/data/auth/change-password-mutation";
import { showToast } from "@/lib/toast";

interface Values {
  current_password: string;
  new_password: string;
  confirm: string;
}

/** Change your own password. The server signs out your other sessions. */
export function ChangePasswordForm(): ReactElement {
  const change = useChangePasswordMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<Values>({ defaultValues: { current_password: "", new_password: "", confirm: "" } });

  const onSubmit = handleSubmit(({ current_password, new_password }) =>
    change.mutate(
      { current_password, new_password },
      {
        onSuccess: () => {
          showToast("success", "Password changed", { description: "Your other sessions were signed out." });
          reset();
        },
      },
    ),
  );

  return (
    <Card>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        <CardHeader>
          <CardTitle>Change password</CardTitle>
          <CardDescription>Use at least 8 characters.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="current_password">Current password</Label>
            <Input
              id="current_password"
              type="password"
              autoComplete="current-password"
              {...register("current_password", { required: "Current password is required" })}
            />
            <FieldError message={errors.current_password?.message} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="new_password">New password</Label>
            <Input
              id="new_password"
              type="password"
              autoComplete="new-password"
              {...register("new_password", {
                required: "New password is required",
                minLength: { value: 8, message: "Password must be at least 8 characters" },
              })}
            />
            <FieldError message={errors.new_password?.message} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="confirm">Confirm new password</Label>
            <Input
              id="confirm"
              type="password"
              autoComplete="new-password"
              {...register("confirm", {
                validate: (v, all) => v === all.new_password || "Passwords do not match",
              })}
            />
            <FieldError message={errors.confirm?.message} />
          </div>
        </CardContent>
        <CardFooter>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending && <Loader2Icon className="animate-spin" />}
            Update password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

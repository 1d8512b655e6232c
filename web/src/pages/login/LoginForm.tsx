import { Loader2Icon } from "lucide-react";
import type { ReactElement } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useLoginMutation, type LoginVars } from "@/data/auth/login-mutation";
import { showToast } from "@/lib/toast";

/** Username/password form. On success: toast, then /dashboard with a full reload (spec §2). */
export function LoginForm(): ReactElement {
  const login = useLoginMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginVars>({ defaultValues: { username: "", password: "" } });

  const onSubmit = handleSubmit((vars) =>
    login.mutate(vars, {
      onSuccess: () => {
        showToast("success", "Logged in successfully");
        setTimeout(() => window.location.assign("/dashboard"), 600);
      },
      onError: () => showToast("error", "Invalid credentials"),
    }),
  );

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor="username">Username</Label>
        <Input
          id="username"
          autoComplete="username"
          autoFocus
          aria-invalid={errors.username ? true : undefined}
          {...register("username", { required: "Username is required" })}
        />
        <FieldError message={errors.username?.message} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="password">Password</Label>
        <Input
          id="password"
          type="password"
          autoComplete="current-password"
          aria-invalid={errors.password ? true : undefined}
          {...register("password", { required: "Password is required" })}
        />
        <FieldError message={errors.password?.message} />
      </div>
      <Button type="submit" className="w-full" disabled={login.isPending || login.isSuccess}>
        {(login.isPending || login.isSuccess) && <Loader2Icon className="animate-spin" aria-hidden />}
        Sign in
      </Button>
    </form>
  );
}

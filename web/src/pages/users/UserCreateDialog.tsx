import { Loader2Icon, PlusIcon } from "lucide-react";
import { useState, type ReactElement } from "react";
import { Controller, useForm } from "react-hook-form";
import type { Role } from "@/api/client";
import { RoleSelect } from "@/pages/users/RoleSelect";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { FieldError, Label } from "@/components/ui/label";
import { useUserCreateMutation } from "@/data/users/user-create-mutation";
import { showToast } from "@/lib/toast";

interface Values {
  username: string;
  password: string;
  role: Role;
}

export function UserCreateDialog(): ReactElement {
  const [open, setOpen] = useState(false);
  const create = useUserCreateMutation();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<Values>({ defaultValues: { username: "", password: "", role: "viewer" } });

  const onSubmit = handleSubmit((v) =>
    create.mutate(v, {
      onSuccess: (u) => {
        showToast("success", "User created", { description: `${u.username} can now sign in.` });
        reset();
        setOpen(false);
      },
    }),
  );

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <PlusIcon /> Add user
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Add user</DialogTitle>
            <DialogDescription>They sign in with this username and password.</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="new-username">Username</Label>
            <Input
              id="new-username"
              autoComplete="off"
              {...register("username", {
                required: "Username is required",
                pattern: {
                  value: /^[A-Za-z0-9._-]{3,64}$/,
                  message: "3–64 letters, digits, dots, dashes or underscores",
                },
              })}
            />
            <FieldError message={errors.username?.message} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="new-password">Password</Label>
            <Input
              id="new-password"
              type="password"
              autoComplete="new-password"
              {...register("password", {
                required: "Password is required",
                minLength: { value: 8, message: "Password must be at least 8 characters" },
              })}
            />
            <FieldError message={errors.password?.message} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="new-role">Role</Label>
            <Controller
              control={control}
              name="role"
              render={({ field }) => <RoleSelect id="new-role" value={field.value} onChange={field.onChange} />}
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending && <Loader2Icon className="animate-spin" />}
              Create user
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

import { ChevronDownIcon, LinkIcon, NetworkIcon, PlusIcon } from "lucide-react";
import type { ReactElement } from "react";
import { useNavigate } from "react-router";
import { RoleGate } from "@/app/RoleGate";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

/** Header create menu; denied to the viewer role (spec §6). */
export function CreateMenu(): ReactElement {
  const navigate = useNavigate();
  return (
    <RoleGate denied={["viewer"]}>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button size="sm" aria-label="Create">
            <PlusIcon />
            <span className="hidden sm:inline">Create</span>
            <ChevronDownIcon className="hidden opacity-70 sm:block" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-56">
          <DropdownMenuLabel>Fabric</DropdownMenuLabel>
          <DropdownMenuItem onSelect={() => void navigate("/fabric-wizard")}>
            <NetworkIcon /> Fabric Create Network
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void navigate("/fabric-join")}>
            <LinkIcon /> Fabric Join Network
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel>Besu</DropdownMenuLabel>
          <DropdownMenuItem onSelect={() => void navigate("/networks/besu/bulk-create")}>
            <NetworkIcon /> Besu Create Network
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </RoleGate>
  );
}

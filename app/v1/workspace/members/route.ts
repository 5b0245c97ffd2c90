import { route } from "@/lib/api/route";
import { listMembersContract } from "@/lib/contracts/members";
import { membersData } from "./members-resource";

// GET /v1/workspace/members — everyone in the workspace, owners first.
export const GET = route(listMembersContract, async ({ auth }) => membersData(auth.workspace.id));

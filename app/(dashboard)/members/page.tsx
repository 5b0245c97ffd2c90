import type { Metadata } from "next";
import { MembersView } from "./_components/members-view";

export const metadata: Metadata = { title: "Members" };

// /members: the workspace's members and roles; owners invite (a link shown once), change roles and remove people.
export default function MembersPage() {
  return <MembersView />;
}

import { SignOutButton } from "./sign-out-button";

/** A signed-in user who belongs to no workspace (they left, or were removed from, their last one). */
export function NoWorkspace({ email }: { email: string }) {
  return (
    <main className="auth-main">
      <section className="card auth-card auth-card-single" aria-labelledby="no-workspace-title">
        <h1 id="no-workspace-title">No workspace</h1>
        <p>
          {email ? <>{email} is </> : <>You are </>}not a member of any workspace on this server. Ask a workspace owner
          for an invitation link and open it while signed in.
        </p>
        <SignOutButton />
      </section>
    </main>
  );
}

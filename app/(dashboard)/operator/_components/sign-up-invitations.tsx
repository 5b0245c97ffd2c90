"use client";

import Link from "next/link";
import { useId, useRef, useState, type FormEvent } from "react";
import { FormAlert } from "@/app/(dashboard)/_components/form-alert";
import type { CreatedInvitation } from "@/app/(dashboard)/_components/invitation-link-dialog";
import { PendingInvitations } from "@/app/(dashboard)/_components/pending-invitations";
import { TextField } from "@/app/(dashboard)/_components/text-field";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusFirstInvalid } from "@/app/(dashboard)/_hooks/use-focus-first-invalid";
import { errorMessage, formErrors } from "@/app/(dashboard)/_lib/form-errors";
import { useCreateSignUpInvitation, useRevokeSignUpInvitation, useSignUpInvitations } from "../_hooks/use-operator";
import styles from "./operator.module.css";

function SignUpInvitationForm({ onCreated }: { onCreated: (created: CreatedInvitation) => void }) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const create = useCreateSignUpInvitation();
  const [email, setEmail] = useState("");
  const errors = create.error ? formErrors(create.error, ["email"]) : { form: null, fields: {} };
  useFocusFirstInvalid(form, create.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate(email, {
      onSuccess: (created) => {
        onCreated(created);
        setEmail("");
        // The link is handed to the dialog; do not keep a copy in the mutation cache.
        create.reset();
      },
    });
  }

  return (
    <form ref={form} className={ui.stack} onSubmit={submit}>
      <FormAlert message={errors.form} />
      <TextField
        id={`${id}-email`}
        label="Email"
        value={email}
        onChange={setEmail}
        required
        maxLength={254}
        hint="The link works once, for this address only, for 7 days."
        error={errors.fields.email}
      />
      <div className={ui.row}>
        <button type="submit" className="button button-primary" aria-disabled={create.isPending}>
          {create.isPending ? "Creating the link…" : "Create sign-up link"}
        </button>
      </div>
    </form>
  );
}

const POLICY = {
  invite: (
    <>
      Sign-up is by invitation (<code>SIGNUP=invite</code>): whoever opens a sign-up link creates an account with a
      workspace of their own. Owners invite people into their workspaces from <Link href="/members">Members</Link>.
    </>
  ),
  open: (
    <>
      Sign-up is open (<code>SIGNUP=open</code>): anyone who reaches this server can create an account at{" "}
      <Link href="/sign-up">/sign-up</Link>. A sign-up link still helps: it names the email the account is for.
    </>
  ),
  closed: (
    <>
      Sign-up is closed (<code>SIGNUP=closed</code>, the default): people get accounts only through an owner&apos;s
      invitation into a workspace, sent from <Link href="/members">Members</Link>. To let people sign up with a
      workspace of their own through a link from you, start the server with <code>SIGNUP=invite</code>.
    </>
  ),
} as const;

/** The sign-up policy, and with `invite` or `open` the operator's sign-up links: create one, revoke pending ones. */
export function SignUpInvitations({
  onCreated,
  onStatus,
}: {
  onCreated: (created: CreatedInvitation) => void;
  onStatus: (message: string) => void;
}) {
  const invitations = useSignUpInvitations();
  const revoke = useRevokeSignUpInvitation();

  if (invitations.isPending)
    return <div className={ui.skeleton} aria-busy="true" aria-label="Loading sign-up invitations" />;
  if (!invitations.data)
    return (
      <div role="alert" className={ui.alert}>
        <p>Could not load the sign-up invitations: {errorMessage(invitations.error)}</p>
        <button type="button" className="button button-small" onClick={() => void invitations.refetch()}>
          Try again
        </button>
      </div>
    );
  const { signUp, invitations: pending } = invitations.data;
  return (
    <div className={ui.stack}>
      <p className={styles.policy}>{POLICY[signUp]}</p>
      {signUp === "closed" ? null : <SignUpInvitationForm onCreated={onCreated} />}
      {/* Links made before sign-up was closed are listed too: revoking them is still worth it. */}
      {signUp === "closed" && pending.length === 0 ? null : (
        <>
          <h3 className={styles.subTitle}>Pending sign-up links</h3>
          <PendingInvitations
            invitations={pending}
            caption="Pending sign-up invitations"
            showRole={false}
            revoke={revoke}
            onRevoked={onStatus}
          />
        </>
      )}
    </div>
  );
}

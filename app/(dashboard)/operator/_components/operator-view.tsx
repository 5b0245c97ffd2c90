"use client";

import { useRef, useState, type FormEvent } from "react";
import { InvitationLinkDialog, type CreatedInvitation } from "@/app/(dashboard)/_components/invitation-link-dialog";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useCurrentUser } from "@/app/(dashboard)/_hooks/use-current-user";
import { useFocusRescue } from "@/app/(dashboard)/_hooks/use-focus-rescue";
import { formatCount, formatDateTime } from "@/app/(dashboard)/_lib/display-format";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { useOperatorWorkspaces, useUnknownEndpointRequests, type OperatorWorkspace } from "../_hooks/use-operator";
import { AddFundsDialog } from "./add-funds-dialog";
import { SignUpInvitations } from "./sign-up-invitations";
import styles from "./operator.module.css";
import { WorkspacesTable } from "./workspaces-table";

function OperatorsOnly() {
  return (
    <section className={`${ui.card} ${ui.empty}`} aria-labelledby="operators-only-title">
      <h2 id="operators-only-title">Operators only</h2>
      <p>
        This page is for the people who run this Signalbox server: it shows every workspace and adds funds to them. Your
        account is not an operator. If your workspace needs funds, ask an operator of this server.
      </p>
    </section>
  );
}

function WorkspacesSection({ onAddFunds }: { onAddFunds: (workspace: OperatorWorkspace) => void }) {
  const [draft, setDraft] = useState("");
  const [search, setSearch] = useState("");
  const workspaces = useOperatorWorkspaces(search);

  function submit(event: FormEvent) {
    event.preventDefault();
    setSearch(draft.trim());
  }

  return (
    <section className={ui.card} aria-labelledby="workspaces-title">
      <h2 id="workspaces-title" className={ui.sectionTitle}>
        Workspaces
      </h2>
      <form role="search" aria-label="Search workspaces" className={styles.search} onSubmit={submit}>
        <div className="field">
          <label htmlFor="operator-search">Search</label>
          <input
            id="operator-search"
            type="search"
            className="input"
            value={draft}
            maxLength={200}
            onChange={(event) => setDraft(event.target.value)}
            aria-describedby="operator-search-hint"
          />
          <p id="operator-search-hint" className="hint">
            By name, id or owner email. At most 100 workspaces are listed, by name.
          </p>
        </div>
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <p role="status" className={ui.muted}>
        {workspaces.isPlaceholderData
          ? "Searching…"
          : workspaces.data
            ? `${workspaces.data.length === 1 ? "1 workspace" : `${workspaces.data.length} workspaces`}${search ? ` matching “${search}”` : ""}.`
            : ""}
      </p>
      {workspaces.isPending ? (
        <div className={ui.skeleton} aria-busy="true" aria-label="Loading workspaces" />
      ) : !workspaces.data ? (
        <div role="alert" className={ui.alert}>
          <p>Could not load the workspaces: {errorMessage(workspaces.error)}</p>
          <button type="button" className="button button-small" onClick={() => void workspaces.refetch()}>
            Try again
          </button>
        </div>
      ) : workspaces.data.length === 0 ? null : (
        <WorkspacesTable workspaces={workspaces.data} onAddFunds={onAddFunds} />
      )}
    </section>
  );
}

/** Requests for endpoint ids that exist nowhere: counted, not stored (lib/inbox/rejection-log.ts). */
function UnknownEndpointsSection() {
  const counted = useUnknownEndpointRequests();
  return (
    <section className={ui.card} aria-labelledby="unknown-endpoints-title">
      <h2 id="unknown-endpoints-title" className={ui.sectionTitle}>
        Ingest for unknown endpoints
      </h2>
      {counted.data ? (
        <p>
          {formatCount(counted.data.count)} {counted.data.count === 1 ? "request" : "requests"} for endpoint ids that
          exist nowhere since {formatDateTime(counted.data.since)}, counted by the server instance that answered this
          page (each instance counts its own). A steady count means senders still use deleted endpoints, or someone is
          guessing ids.
        </p>
      ) : counted.isPending ? (
        <p className={ui.muted}>Loading…</p>
      ) : (
        <p role="alert" className={ui.alert}>
          Could not load the count: {errorMessage(counted.error)}
        </p>
      )}
    </section>
  );
}

export function OperatorView() {
  const me = useCurrentUser();
  const title = useRef<HTMLHeadingElement>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [crediting, setCrediting] = useState<OperatorWorkspace | null>(null);
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const rescueFocusTo = useFocusRescue();
  // The API decides (its 403 is shown in words if the role is taken away meanwhile); /v1/me spares a non-operator
  // the refused calls.
  const forbidden = me.data?.user.operator === false;

  function closeInvitationDialog() {
    const email = created?.invitation.email;
    // Drop the link from memory as soon as the dialog closes.
    setCreated(null);
    if (email) setStatus(`Invited ${email} to sign up. The link is listed under “Pending sign-up links” until used.`);
  }

  return (
    <div className={ui.page}>
      <div className={ui.header}>
        <div>
          <h1 ref={title} tabIndex={-1}>
            Operator
          </h1>
          <p className={ui.lead}>Running this server: every workspace with its balances, funds, and who may sign up.</p>
        </div>
      </div>

      <div role="status" className={ui.pageStatus}>
        {status ? <p className={ui.success}>{status}</p> : null}
      </div>

      {forbidden ? (
        <OperatorsOnly />
      ) : me.isPending ? (
        <div className={ui.skeleton} aria-busy="true" aria-label="Loading" />
      ) : !me.data ? (
        <div role="alert" className={ui.alert}>
          <p>Could not load your account: {errorMessage(me.error)}</p>
          <button type="button" className="button button-small" onClick={() => void me.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          <WorkspacesSection onAddFunds={setCrediting} />
          <UnknownEndpointsSection />
          <section className={ui.card} aria-labelledby="sign-up-invitations-title">
            <h2 id="sign-up-invitations-title" className={ui.sectionTitle}>
              Sign-up invitations
            </h2>
            <SignUpInvitations
              onCreated={(next) => {
                setStatus(null);
                setCreated(next);
              }}
              onStatus={(message) => {
                setStatus(message);
                // The revoked link's button is gone once the list refreshes.
                rescueFocusTo(title.current);
              }}
            />
          </section>
        </>
      )}

      <AddFundsDialog
        workspace={crediting}
        onClose={(message) => {
          setCrediting(null);
          if (message) setStatus(message);
        }}
      />
      <InvitationLinkDialog created={created} onClose={closeInvitationDialog} />
    </div>
  );
}

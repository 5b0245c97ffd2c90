"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useFocusRescue } from "@/app/(dashboard)/_hooks/use-focus-rescue";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { useApiKeys } from "../_hooks/use-api-keys";
import { ApiKeyTable } from "./api-key-table";
import { CreateApiKeyForm } from "./create-api-key-form";
import { NewKeyDialog } from "./new-key-dialog";

export function ApiKeysView() {
  const keys = useApiKeys();
  const title = useRef<HTMLHeadingElement>(null);
  const [created, setCreated] = useState<{ name: string; key: string; mode: "live" | "test" } | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const rescueFocusTo = useFocusRescue();

  function closeDialog() {
    const name = created?.name;
    // Drop the secret from memory as soon as the dialog closes.
    setCreated(null);
    if (name) setStatus(`Created “${name}”.`);
  }

  function revoked(message: string) {
    setStatus(message);
    // The row's Revoke button is gone once the list refreshes.
    rescueFocusTo(title.current);
  }

  return (
    <div className={ui.page}>
      <div className={ui.header}>
        <div>
          <h1 ref={title} tabIndex={-1}>
            API keys
          </h1>
          <p className={ui.lead}>
            Keys authenticate calls to the API: send one as <code>Authorization: Bearer &lt;key&gt;</code>. See the{" "}
            <Link href="/docs">API reference</Link>.
          </p>
        </div>
      </div>

      <div role="status" className={ui.pageStatus}>
        {status ? <p className={ui.success}>{status}</p> : null}
      </div>

      <section className={ui.card} aria-labelledby="create-key-title">
        <h2 id="create-key-title" className={ui.sectionTitle}>
          Create a key
        </h2>
        <CreateApiKeyForm
          onCreated={(next) => {
            setStatus(null);
            setCreated(next);
          }}
        />
      </section>

      <section className={ui.card} aria-labelledby="keys-title">
        <h2 id="keys-title" className={ui.sectionTitle}>
          Keys
        </h2>
        {keys.isPending ? (
          <div className={ui.skeleton} aria-busy="true" aria-label="Loading API keys" />
        ) : !keys.data ? (
          <div role="alert" className={ui.alert}>
            <p>Could not load the API keys: {errorMessage(keys.error)}</p>
            <button type="button" className="button button-small" onClick={() => void keys.refetch()}>
              Try again
            </button>
          </div>
        ) : keys.data.length === 0 ? (
          <div className={ui.empty}>
            <p>
              No API keys yet. Create a <strong>test</strong> key above to try the API for free with synthetic data, and
              a <strong>live</strong> key when your code is ready for real results.
            </p>
          </div>
        ) : (
          <ApiKeyTable keys={keys.data} onRevoked={revoked} />
        )}
      </section>

      <NewKeyDialog created={created} onClose={closeDialog} />
    </div>
  );
}

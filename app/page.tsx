import Link from "next/link";

export default function HomePage() {
  return (
    <main className="page">
      <h1>Signalbox</h1>
      <p className="muted">
        A self-hostable data API: a webhook inbox that never loses a delivery, priced enrichment endpoints, and public
        video details — behind one API key scheme.
      </p>
      <section className="card">
        <h2>Get started</h2>
        <p>
          <code>npm start</code> printed a live and a test key on its first run. Check that yours works:
        </p>
        <pre>
          <code>curl -H &quot;Authorization: Bearer sbx_live_…&quot; http://localhost:3000/v1/workspace</code>
        </pre>
        <p>
          Every operation is described in the <Link href="/docs">API reference</Link>, generated from the same contracts
          that validate each request.
        </p>
      </section>
    </main>
  );
}

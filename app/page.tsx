export default function HomePage() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 640, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>Payment Gateway</h1>
      <p>Non-custodial crypto payments for merchants: create orders over the REST API, let customers pay on a hosted page, and receive signed webhooks.</p>
    </main>
  );
}

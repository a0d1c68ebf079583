/** A realistic ~1 KB JSON webhook body (a Stripe-like invoice.paid event), and a ~64 KB one. */
export function sampleBody(targetBytes = 1024): string {
  const event = {
    id: "evt_1Nq2xY2eZvKYlo2C9X0aBcDe",
    object: "event",
    type: "invoice.paid",
    created: 1700000000,
    livemode: false,
    data: {
      object: {
        id: "in_1Nq2xX2eZvKYlo2Cq1w2e3r4",
        object: "invoice",
        amount_paid: 4200,
        amount: 4200,
        currency: "usd",
        customer: "cus_OdXyZ123",
        customer_email: "jane.doe@example.com",
        customer_name: "Jane Doe",
        customer_phone: "+1 415 555 0100",
        status: "paid",
        lines: [] as Array<Record<string, unknown>>,
      },
    },
  };
  let i = 0;
  while (JSON.stringify(event).length < targetBytes - 120) {
    event.data.object.lines.push({ id: `il_${i}`, amount: 100 + i, description: `Line item ${i}`, quantity: 1 + (i % 3) });
    i++;
  }
  return JSON.stringify(event);
}

/** The bench's redaction patterns: 10 of the kind users write (test/bench/run.ts, profile.ts). */
export const REDACTION_PATTERNS = [
  "pass(word)?",
  "^secret",
  "token$",
  "^api[_-]?key$",
  "ssn|social",
  "^(card|cc)[_-]?(num|number)?$",
  "cvv|cvc",
  "email",
  "phone",
  "^(dob|birth)",
];

/** An include filter every sample body passes. */
export const SAMPLE_FILTER = { enabled: true, mode: "include", expression: '$.type == "invoice.paid" && $.data.object.amount > 100' };

/**
 * Issue 13's configuration: HMAC, dedup on a delivery-id header (new each request, so the body
 * and its signature stay the same), the include filter, the 10 redaction patterns, workflow none.
 */
export const FULL_CONFIGURATION = {
  auth: { type: "hmac-sha256" },
  dedup: { strategy: "header-value", headerName: "X-Delivery-Id" },
  filter: SAMPLE_FILTER,
  redaction: { enabled: true, patterns: REDACTION_PATTERNS },
  workflow: { kind: "none" },
};

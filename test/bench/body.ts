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

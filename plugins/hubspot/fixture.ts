import type { PluginFixture } from "../../src/plugins/index.ts";

// A webhooks-API batch as HubSpot documents it: two events of one subscription type.
export default {
  appSecret: "yyyyyyyy-yyyy-yyyy-yyyy-yyyyyyyyyyyy",
  body: JSON.stringify([
    {
      eventId: 1001,
      subscriptionId: 12345,
      portalId: 62515,
      appId: 54321,
      occurredAt: 1715342400000,
      subscriptionType: "contact.propertyChange",
      attemptNumber: 0,
      objectId: 123,
      propertyName: "email",
      propertyValue: "ada@example.com",
      changeSource: "CRM",
      sourceId: "userId:1",
    },
    {
      eventId: 1002,
      subscriptionId: 12345,
      portalId: 62515,
      appId: 54321,
      occurredAt: 1715342400500,
      subscriptionType: "contact.propertyChange",
      attemptNumber: 0,
      objectId: 124,
      propertyName: "email",
      propertyValue: "grace@example.com",
      changeSource: "CRM",
      sourceId: "userId:1",
    },
  ]),
  // A query string with an escape HubSpot decodes before signing (%2F).
  query: "?source=hubspot%2Fcrm",
  // SHA-256 of "12345:1001:1715342400000,12345:1002:1715342400500".
  deliveryId: "1cdb91f26acae298557b2d152bd7d306c51218e8fe5cc22d65986983e5cd5a9a",
  event: "contact.propertyChange",
} satisfies PluginFixture;

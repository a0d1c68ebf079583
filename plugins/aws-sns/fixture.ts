import type { PluginFixture } from "../../src/plugins/index.ts";
import { providerFetchServing } from "../../test/plugins/provider_documents.ts";
import { TEST_CERTIFICATE, TEST_PRIVATE_KEY } from "./test_key.ts";

const TOPIC = "arn:aws:sns:us-east-1:123456789012:orders";
/** Where the fixture's certificate is "published": an SNS host, under the name AWS gives certificates. */
export const CERTIFICATE_URL = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem";

/**
 * The fetcher the failure-mode suite gives this plugin's hooks: SNS's certificate host, standing
 * in from memory (the real URL, under the plugin's own fetch rule; nothing reaches AWS).
 */
export const providerFetch = providerFetchServing({ [CERTIFICATE_URL]: TEST_CERTIFICATE });

// An S3 event delivered through a topic, as SNS posts it (text/plain; the message a JSON string).
// sign() stamps the Timestamp and replaces the Signature with one made by the test key.
export default {
  appSecret: "",
  signingKey: TEST_PRIVATE_KEY,
  body: JSON.stringify({
    Type: "Notification",
    MessageId: "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
    TopicArn: TOPIC,
    Subject: "Amazon S3 Notification",
    Message: JSON.stringify({
      Records: [
        {
          eventVersion: "2.1",
          eventSource: "aws:s3",
          awsRegion: "us-east-1",
          eventTime: "2025-06-15T15:06:39.912Z",
          eventName: "ObjectCreated:Put",
          s3: {
            bucket: { name: "orders-inbox", arn: "arn:aws:s3:::orders-inbox" },
            object: { key: "2025/06/15/order-1042.json", size: 2104, eTag: "d41d8cd98f00b204e9800998ecf8427e" },
          },
        },
      ],
    }),
    Timestamp: "2025-06-15T15:06:40.000Z",
    SignatureVersion: "2",
    Signature: "A".repeat(344),
    SigningCertURL: CERTIFICATE_URL,
    UnsubscribeURL: `https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=${TOPIC}:c9135db0-26c4-47ec-8998-413945fb5a96`,
  }),
  contentType: "text/plain; charset=UTF-8",
  headers: {
    "x-amz-sns-message-type": "Notification",
    "x-amz-sns-message-id": "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
    "x-amz-sns-topic-arn": TOPIC,
    "x-amz-sns-subscription-arn": `${TOPIC}:c9135db0-26c4-47ec-8998-413945fb5a96`,
    "user-agent": "Amazon Simple Notification Service Agent",
  },
  appSettings: { topicArns: [TOPIC] },
  // SNS shares no secret: AWS signs with the key of the certificate at the message's SigningCertURL.
  providerKeys: true,
  deliveryId: "22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324",
  event: "Notification",
} satisfies PluginFixture;

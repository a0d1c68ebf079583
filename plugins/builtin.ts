import type { InletPlugin } from "../src/plugins/types.ts";
import github from "./github/index.ts";
import gitlab from "./gitlab/index.ts";
import bitbucket from "./bitbucket/index.ts";
import stripe from "./stripe/index.ts";
import paddle from "./paddle/index.ts";
import square from "./square/index.ts";
import shopify from "./shopify/index.ts";
import slack from "./slack/index.ts";
import discord from "./discord/index.ts";
import twilio from "./twilio/index.ts";
import sendgrid from "./sendgrid/index.ts";
import mailgun from "./mailgun/index.ts";
import mailchimp from "./mailchimp/index.ts";
import mandrill from "./mandrill/index.ts";
import postmark from "./postmark/index.ts";
import standardWebhooks from "./standard-webhooks/index.ts";
import svix from "./svix/index.ts";
import clerk from "./clerk/index.ts";
import resend from "./resend/index.ts";
import openai from "./openai/index.ts";
import linear from "./linear/index.ts";
import jira from "./jira/index.ts";
import pagerduty from "./pagerduty/index.ts";
import sentry from "./sentry/index.ts";
import zoom from "./zoom/index.ts";
import hubspot from "./hubspot/index.ts";
import intercom from "./intercom/index.ts";
import typeform from "./typeform/index.ts";
import calendly from "./calendly/index.ts";
import twitch from "./twitch/index.ts";
import vercel from "./vercel/index.ts";
import gcpPubsub from "./gcp-pubsub/index.ts";
import notion from "./notion/index.ts";
import asana from "./asana/index.ts";
import dropbox from "./dropbox/index.ts";
import azureEventGrid from "./azure-eventgrid/index.ts";
import awsSns from "./aws-sns/index.ts";

/** Every built-in app-trigger plugin (docs/plugins.md#loading-plugins), bundled into the binary. */
export const BUILTIN_PLUGINS: InletPlugin[] = [
  github,
  gitlab,
  bitbucket,
  stripe,
  paddle,
  square,
  shopify,
  slack,
  discord,
  twilio,
  sendgrid,
  mailgun,
  mailchimp,
  mandrill,
  postmark,
  standardWebhooks,
  svix,
  clerk,
  resend,
  openai,
  linear,
  jira,
  pagerduty,
  sentry,
  zoom,
  hubspot,
  intercom,
  typeform,
  calendly,
  twitch,
  vercel,
  gcpPubsub,
  notion,
  asana,
  dropbox,
  azureEventGrid,
  awsSns,
];

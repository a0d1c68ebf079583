import { svixSentSuite } from "../_shared/svix_sent_suite.ts";
import fixture from "./fixture.ts";
import plugin from "./index.ts";

svixSentSuite("resend", plugin, fixture);

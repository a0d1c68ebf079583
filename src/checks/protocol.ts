import type { Crossing } from "./crossing.ts";
import type { CheckOp, CheckSettings } from "./check_ops.ts";

/** One evaluation asked of a sandbox worker. `key` names the trigger version its checks compile from. */
export interface CheckJob {
  id: number;
  key: string;
  settings: CheckSettings;
  op: CheckOp;
  /** The body (or the field names, for `classify`). */
  input: Crossing;
}

/** A worker's answer: the check's result, or the error it threw (its code keeps the kind). */
export type CheckAnswer = { id: number; ok: true; result: Crossing } | { id: number; ok: false; error: { name: string; code?: string; message: string } };

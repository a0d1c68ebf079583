import { clientScript, stylesheet } from "./build_assets.ts" with { type: "macro" };

/** The panel's assets, inlined when this module is transpiled (see build_assets.ts). */
export const PANEL_SCRIPT: string = clientScript();
export const PANEL_STYLES: string = stylesheet();

// axe-core on every screen of the panel at desktop width (1280 px) (accessibility_screens.ts).
import { accessibilityAt } from "./accessibility_screens.ts";

accessibilityAt(1280, 800, "light");

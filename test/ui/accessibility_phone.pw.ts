// axe-core on every screen of the panel at phone width (390 px) (accessibility_screens.ts).
import { accessibilityAt } from "./accessibility_screens.ts";

accessibilityAt(390, 844, "light");

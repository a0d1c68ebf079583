// axe-core on every screen of the panel at desktop width in the dark colour scheme (accessibility_screens.ts).
import { accessibilityAt } from "./accessibility_screens.ts";

accessibilityAt(1280, 800, "dark");

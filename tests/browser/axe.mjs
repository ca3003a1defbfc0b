// axe-core's audit of a screen: the serious and critical violations it
// finds, kept with the screen's name, for the test to report and fail on.
import { AxeBuilder } from "@axe-core/playwright";

/** Audits `page` as it is now, as the screen `name`, into `found`. */
export async function audit(page, name, found) {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  found.push({
    name,
    violations: result.violations.length,
    bad: bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`),
  });
}

/** One line per screen audited, and the serious or critical findings;
 * `null` when there are none. */
export function findings(found) {
  const bad = found.filter((f) => f.bad.length > 0);
  console.log(`axe-core: ${found.length} screens audited, ${bad.length} with serious or critical violations`);
  return bad.length === 0 ? null : bad.map((f) => `${f.name}: ${f.bad.join("; ")}`).join("\n");
}

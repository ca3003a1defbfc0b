// Drives the page of `prime-solve serve` in Debian's headless Chromium at
// phone sizes, as a person would: a hand tapped on the card picker and its
// primes, a prime worked step by step, house rules changed, a right and a
// wrong claim refereed, a practice round played, the crib read; then,
// with the server stopped, the page reloaded and a hand answered from the
// table it kept. Usage:
//   node page.mjs URL SCREENSHOT_DIR SERVER_PID
// Exits 0 when every step shows what it should, 1 with the reason if not.
import { chromium } from "playwright-core";
import { audit, findings } from "./axe.mjs";

/** Every screen's axe-core audit. */
const audited = [];

const [url, shots, serverPid] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const fail = async (why) => {
  console.error(why);
  await browser.close();
  process.exit(1);
};
const text = (page, sel) => page.textContent(sel);
const until = (page, fn, arg) => page.waitForFunction(fn, arg, { timeout: 15000 });
/** Waits for `fn`, run in the page, to resolve to a truthy value: for a
 * promise, which `waitForFunction` takes as truthy at once. */
async function untilResolved(page, fn, what) {
  const deadline = Date.now() + 15000;
  while (!(await page.evaluate(fn))) {
    if (Date.now() > deadline) await fail(`waited 15 s for ${what}`);
    await page.waitForTimeout(100);
  }
}

/** What a person checks on every screen: nothing scrolls sideways, every
 * control is big enough to tap, the console is clean. */
async function looksRight(page, width, errors, where) {
  await audit(page, `${where}, ${width} px`, audited);
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  if (scroll > width) await fail(`${where}: ${width} px wide, the page scrolls sideways to ${scroll} px`);
  const small = await page.evaluate(() =>
    [...document.querySelectorAll("button, input, select, nav a, summary")]
      .filter((e) => e.type !== "checkbox" && e.offsetParent !== null)
      .map((e) => [e.id || e.textContent.trim().slice(0, 12), e.getBoundingClientRect().height])
      .filter(([, h]) => h < 44),
  );
  if (small.length > 0) await fail(`${where}: touch targets under 44 px: ${JSON.stringify(small)}`);
  // A control outlined on the same ground as its own is seen by its edge:
  // 3:1 at least against the ground it stands on (WCAG 1.4.11).
  const faint = await page.evaluate(() => {
    const rgb = (c) => c.match(/[\d.]+/g).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ground = (e) => {
      for (let p = e.parentElement; p; p = p.parentElement) {
        const c = getComputedStyle(p).backgroundColor;
        if (rgb(c)[3] !== 0) return c;
      }
      return getComputedStyle(document.body).backgroundColor;
    };
    return [...document.querySelectorAll("nav a, button.second, button.quiet, #picker button, .card")]
      .filter((e) => e.offsetParent !== null && getComputedStyle(e).borderTopWidth !== "0px")
      .map((e) => {
        const [a, b] = [lum(rgb(getComputedStyle(e).borderTopColor)), lum(rgb(ground(e)))];
        return [e.id || e.textContent.trim().slice(0, 12), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
      })
      .filter(([, ratio]) => ratio < 3);
  });
  if (faint.length > 0) await fail(`${where}: control edges under 3:1: ${JSON.stringify(faint)}`);
  if (errors.length > 0) await fail(`${where}: the page's console: ${errors.join("; ")}`);
}

async function tour(context, width, height) {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector("#answer ul.primes li", { timeout: 15000 });
  const head = await page.$("#tab-hand h2");
  if (!head || !(await head.textContent()).trim()) await fail("the hand's panel has no heading");
  const first = await text(page, "#answer");
  if (!first.includes("(6 × 4) ÷ 8")) await fail(`the first hand shows: ${first}`);
  // 6 + 4 − 8, (8 + 4) ÷ 6 and 4 ÷ (8 − 6) make 2; one way makes 3.
  for (const want of ["made 3 ways", "made 1 way", "This hand is easy", "Difficulty 0.8"]) {
    if (!first.includes(want)) await fail(`the first hand lacks “${want}”: ${first}`);
  }

  // Tap a hand: Q♥ 7♣ Joker, under J Q K = 11 12 13 with powers.
  await page.click("nav a[data-tab=rules]");
  await page.selectOption("#faces", "rank");
  await page.check("input[name=powers]");
  await page.click("nav a[data-tab=hand]");
  await page.click("#clear");
  await page.click("#picker .suits button[data-suit=H]");
  await page.click("#picker .ranks button[data-rank=Q]");
  await page.click("#picker .suits button[data-suit=C]");
  await page.click("#picker .ranks button[data-rank='7']");
  await page.click("#picker .ranks button[data-rank=JK]");
  if ((await page.inputValue("#cards")) !== "QH 7C JK") await fail(`the picker wrote ${await page.inputValue("#cards")}`);
  await until(page, () => document.querySelector("#answer p")?.textContent.includes("7 12 12"));
  const answer = await text(page, "#answer");
  for (const want of ["Q♥ 7♣ Joker (counting 7 12 12)", "Quickest call", "Best call", "Rules: J = 11, Q = 12, K = 13; + − × ÷; powers and roots"]) {
    if (!answer.includes(want)) await fail(`the tapped hand's answer lacks ${want}: ${answer}`);
  }
  // Tap a prime: its witness worked step by step.
  await page.click("#answer ul.primes li:first-child summary");
  const steps = await page.$$eval("#answer ul.primes li:first-child ol.steps li", (li) => li.map((l) => l.textContent));
  if (steps.length === 0 || !steps.at(-1).includes("=")) await fail(`the first prime's steps: ${steps}`);

  // A slow answer overtaken by a newer one is dropped: the hand on the
  // screen is the one asked last.
  await page.fill("#cards", "4 6 8 9 10");
  await page.click("#hand-form button[type=submit]");
  await page.fill("#cards", "QH 7C JK");
  await page.click("#hand-form button[type=submit]");
  await until(page, () => document.querySelector("#answer p")?.textContent.includes("7 12 12"));
  await page.waitForTimeout(1500);
  const last = await text(page, "#answer p");
  if (!last.includes("7 12 12")) await fail(`an older answer replaced the newer: ${last}`);
  // The referee.
  await page.fill("#claim", "12 * 7 / 12");
  await page.click("#claim-form button");
  await until(page, () => document.querySelector("#verdict p")?.textContent.startsWith("Valid"));
  await page.fill("#claim", "12 + 12 + 7 + 1");
  await page.click("#claim-form button");
  await until(page, () => document.querySelector("#verdict p")?.textContent.startsWith("Invalid"));
  const wrong = await text(page, "#verdict p");
  if (!wrong.includes("1 is not a card in the hand (7 12 12)")) await fail(`the wrong claim reads: ${wrong}`);
  await looksRight(page, width, errors, "the hand");
  await page.screenshot({ path: `${shots}/page-${width}x${height}.png`, fullPage: true });

  // A hand that fails: the nearest prime above the ceiling, and how.
  await page.click("nav a[data-tab=rules]");
  await page.uncheck("input[name=powers]");
  await page.click("nav a[data-tab=hand]");
  await page.fill("#cards", "5 8 Q");
  await page.click("#hand-form button[type=submit]");
  await until(page, () => document.querySelector("#answer p")?.textContent.includes("5 8 12"));
  const failed = await text(page, "#answer");
  if (!failed.includes("makes no prime") || !failed.includes("Nearest prime above: 101 = 12 × 8 + 5")) {
    await fail(`the failing hand reads: ${failed}`);
  }
  if (width === 360) await page.screenshot({ path: `${shots}/page-nearest-360x640.png` });
  // Cards typed loosely are written as cards, in the order typed.
  await page.fill("#cards", "th a q♡");
  await page.click("#hand-form button[type=submit]");
  await until(page, () => document.querySelector("#answer p")?.textContent.includes("counting 1 10 12"));
  const loose = await text(page, "#answer p");
  if (!loose.startsWith("The hand 10♥ A Q♥ (counting 1 10 12) makes")) await fail(`the loosely typed hand reads: ${loose}`);
  await page.click("nav a[data-tab=rules]");
  await page.check("input[name=powers]");
  await page.click("nav a[data-tab=hand]");

  // A practice round: a hint, a claim, the verdict and what was missed.
  await page.click("nav a[data-tab=practice]");
  await page.click("#start-drill");
  await page.waitForSelector("#drill-cards .card", { timeout: 15000 });
  const clock1 = await text(page, "#clock");
  await page.waitForTimeout(300);
  if ((await text(page, "#clock")) === clock1) await fail("the practice clock does not run");
  await page.click("#hint");
  const hint = await text(page, "#hint-text");
  const made = hint.match(/makes (\d+)/);
  if (!made && !hint.includes("makes no prime")) await fail(`the hint reads: ${hint}`);
  await page.screenshot({ path: `${shots}/practice-${width}x${height}.png`, fullPage: true });
  // A wrong call: the referee's words, and the primes it makes.
  await page.fill("#call", "1 + 1 + 1 + 1");
  await page.press("#call", "Enter");
  await page.waitForSelector("#ruling p", { timeout: 15000 });
  const ruling = await text(page, "#ruling");
  if (!ruling.startsWith("Invalid")) await fail(`the wrong call's ruling: ${ruling}`);
  const shown = await page.$$eval("#ruling ul.primes .prime", (s) => s.map((p) => p.textContent));
  if (made && !shown.includes(made[1])) await fail(`the hinted prime ${made[1]} is not among those shown: ${shown}`);
  await page.click("#next");
  await page.waitForSelector("#call-form:not([hidden])");
  if (!(await text(page, "#drill-head")).includes("hand 2 of 10")) await fail(`the second hand: ${await text(page, "#drill-head")}`);
  await looksRight(page, width, errors, "practice");

  // The crib of these rules.
  await page.click("nav a[data-tab=crib]");
  await page.waitForSelector("#crib-body details", { timeout: 15000 });
  await page.click("#crib-body details:first-child summary");
  const crib = await text(page, "#crib-body details:first-child");
  if (!crib.includes("quickest") || !crib.includes("best")) await fail(`the crib reads: ${crib.slice(0, 200)}`);
  const pdf = await page.getAttribute("#crib-pdf", "href");
  if (!pdf.includes("faces=rank") || !pdf.includes("powers=1")) await fail(`the crib's PDF link: ${pdf}`);
  await looksRight(page, width, errors, "the crib");
  await page.screenshot({ path: `${shots}/crib-${width}x${height}.png` });
  // The house rules and playing together; focus on the tab's heading.
  for (const tab of ["rules", "together"]) {
    await page.click(`nav a[data-tab=${tab}]`);
    await until(page, (t) => document.activeElement?.closest(`[data-panel=${t}]`) && document.activeElement.tagName === "H2", tab);
    await looksRight(page, width, errors, `the ${tab} tab`);
  }
  // Beside each kind of game, about how long it lasts, from the server.
  await until(page, () => /about \d+ min/.test(document.querySelector("#create-length option[value='target=27']").textContent));
  await page.close();
}

/** Today's ten played to the end by passing: a result to share that
 * names no card. */
async function daily(context) {
  const page = await context.newPage();
  await page.goto(`${url}#practice`);
  await page.click("#start-daily");
  for (let i = 0; i < 10; i++) {
    await page.waitForSelector("#pass:visible", { timeout: 15000 });
    await page.click("#pass");
    await page.waitForSelector("#next:visible", { timeout: 15000 });
    await page.click("#next");
  }
  await page.waitForSelector("#drill-end textarea.share", { timeout: 15000 });
  const share = await page.inputValue("#drill-end textarea.share");
  if (!/today's ten #\d+\n/.test(share) || !share.includes("0/10")) await fail(`the daily share reads: ${share}`);
  if (/[♠♥♣♦]|\bJK\b/.test(share)) await fail(`the daily share gives the cards away: ${share}`);
  const history = await text(page, "#history");
  if (!history.includes("today's ten")) await fail(`the history reads: ${history}`);
  // Once a day: the day's ten again shows the result and the time to the
  // next, and cannot be played.
  await page.click("#drill-end button.second");
  const done = await text(page, "#daily-done");
  if (!/^Today's ten #\d+: 0\/10, .* a streak of 1\. The next ten in \d+ h \d+ min\.$/.test(done)) await fail(`played today: ${done}`);
  if (!(await page.isDisabled("#start-daily"))) await fail("today's ten can be played twice");
  await audit(page, "today's ten played, dark", audited);
  await page.close();
}

/** The page loaded and its table kept; the server stopped; the page
 * reloaded and a hand answered on the device. */
async function offline(context, width, height) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector("#answer ul.primes li", { timeout: 15000 });
  await page.evaluate(() => navigator.serviceWorker.ready);
  await untilResolved(page, () => caches.match("/api/v1/table?faces=five&steps=1").then((r) => !!r), "the table kept");
  process.kill(Number(serverPid), "SIGTERM");
  await untilResolved(page, () => fetch("/healthz").then(() => false, () => true), "the server to stop");
  await page.reload();
  await page.waitForSelector("#picker .ranks button");
  await page.click("#clear");
  await page.click("#picker .ranks button[data-rank=K]");
  await page.click("#picker .ranks button[data-rank='2']");
  await page.click("#picker .ranks button[data-rank='9']");
  await until(page, () => document.querySelector("#answer")?.textContent.includes("on this device"));
  const answer = await text(page, "#answer");
  // K counts 5 under the default rules: 2 5 9 makes 2 = 9 − 5 − 2.
  if (!answer.includes("2 5 9") || !answer.includes("Quickest call")) await fail(`offline, the hand reads: ${answer}`);
  if (errors.length > 0) await fail(`offline, the page's console: ${errors.join("; ")}`);
  await page.screenshot({ path: `${shots}/offline-${width}x${height}.png`, fullPage: true });
  await page.close();
}

try {
  for (const [width, height] of [[390, 844], [360, 640]]) {
    const context = await browser.newContext({ viewport: { width, height } });
    await tour(context, width, height);
    await context.close();
  }
  const dark = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
  await daily(dark);
  const page = await dark.newPage();
  await page.goto(url);
  await page.waitForSelector("#answer ul.primes li", { timeout: 15000 });
  await page.screenshot({ path: `${shots}/page-dark-390x844.png`, fullPage: true });
  await audit(page, "the hand, dark", audited);
  await dark.close();
  const last = await browser.newContext({ viewport: { width: 360, height: 640 } });
  await offline(last, 360, 640);
  await last.close();
  const bad = findings(audited);
  if (bad) await fail(bad);
} catch (e) {
  await fail(String(e.stack || e));
}
await browser.close();

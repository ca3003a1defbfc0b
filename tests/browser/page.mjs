// Drives the page of `prime-solve serve` in Debian's headless Chromium at
// phone sizes, as a person would: the first hand's primes, a hand typed
// with its house rules, a right and a wrong claim refereed. Usage:
//   node page.mjs URL SCREENSHOT_DIR
// Exits 0 when every step shows what it should, 1 with the reason if not.
import { chromium } from "playwright-core";

const [url, shots] = process.argv.slice(2);
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
try {
  for (const [width, height] of [[390, 844], [360, 640]]) {
    const page = await browser.newPage({ viewport: { width, height } });
    const errors = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForSelector("#answer ul.primes li", { timeout: 10000 });
    const first = await page.textContent("#answer");
    if (!first.includes("(6 × 4) ÷ 8")) await fail(`the first hand shows: ${first}`);
    await page.fill("#cards", "QH 7C JK");
    await page.selectOption("#faces", "rank");
    await page.check("input[name=powers]");
    await page.click("#hand-form button");
    await page.waitForFunction(() => document.querySelector("#answer p")?.textContent.includes("7 12 12"));
    await page.fill("#claim", "12 * 7 / 12");
    await page.click("#claim-form button");
    await page.waitForFunction(() => document.querySelector("#verdict p")?.textContent.startsWith("Valid"));
    await page.fill("#claim", "12 + 12 + 7 + 1");
    await page.click("#claim-form button");
    await page.waitForFunction(() => document.querySelector("#verdict p")?.textContent.startsWith("Invalid"));
    const wrong = await page.textContent("#verdict p");
    if (!wrong.includes("1 is not a card in the hand (7 12 12)")) await fail(`the wrong claim reads: ${wrong}`);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scroll > width) await fail(`${width} px wide, the page scrolls sideways to ${scroll} px`);
    const small = await page.evaluate(() =>
      [...document.querySelectorAll("button, input, select")]
        .filter((e) => e.type !== "checkbox")
        .map((e) => e.getBoundingClientRect().height)
        .filter((h) => h < 44),
    );
    if (small.length > 0) await fail(`touch targets under 44 px: ${small}`);
    if (errors.length > 0) await fail(`the page's console: ${errors.join("; ")}`);
    await page.screenshot({ path: `${shots}/page-${width}x${height}.png`, fullPage: true });
    await page.close();
  }
} catch (e) {
  await fail(String(e));
}
await browser.close();

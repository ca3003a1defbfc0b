// Three phones in one game room, in Debian's headless Chromium: the host
// makes a room, two others join it by its code, the host starts; one
// calls a valid prime and every phone sees the verdict; a reload keeps
// the seat; the table view shows the cards. Usage:
//   node room.mjs URL SCREENSHOT_DIR
// Exits 0 when every step shows what it should, 1 with the reason if not.
import { chromium } from "playwright-core";

const [url, shots] = process.argv.slice(2);
const base = url.replace(/\/$/, "");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const fail = async (why) => {
  console.error(why);
  await browser.close();
  process.exit(1);
};
const wait = { timeout: 15000 };

/** A phone: its page, the turns its socket received, its console errors. */
async function phone(width, height) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const seen = { turns: [], errors: [] };
  page.on("pageerror", (e) => seen.errors.push(e.message));
  page.on("websocket", (ws) =>
    ws.on("framereceived", (f) => {
      try {
        const m = JSON.parse(f.payload);
        if (m.type === "turn") seen.turns.push(m);
      } catch (e) {}
    }),
  );
  return { context, page, seen };
}

try {
  const ann = await phone(390, 844);
  const bob = await phone(360, 640);
  const cat = await phone(390, 844);

  await ann.page.goto(`${base}/#together`);
  await ann.page.fill("#create-name", "Ann");
  await ann.page.selectOption("#create-seats", "3");
  await ann.page.click("#create-form button[type=submit]");
  await ann.page.waitForURL(/\/room\/[A-Z0-9]{6}$/, wait);
  await ann.page.waitForSelector("#code:not(:empty)", wait);
  const code = await ann.page.textContent("#code");
  await ann.page.waitForSelector("#qr", wait);
  const qrOk = await ann.page.evaluate(() => document.getElementById("qr").naturalWidth > 0);
  if (!qrOk) await fail("the room's QR code did not load");
  await ann.page.screenshot({ path: `${shots}/room-lobby-390x844.png`, fullPage: true });

  for (const [p, name] of [[bob, "Bob"], [cat, "Cat"]]) {
    await p.page.goto(`${base}/#together`);
    await p.page.fill("#enter-code", code.toLowerCase());
    await p.page.click("#enter-form button[type=submit]");
    await p.page.waitForSelector("#join-form:not([hidden])", wait);
    await p.page.fill("#join-name", name);
    await p.page.click("#join-form button[type=submit]");
    await p.page.waitForFunction((n) => document.getElementById("status").textContent.includes(n), name, wait);
  }
  await ann.page.waitForSelector("#start:not([disabled])", wait);
  await ann.page.click("#start");
  for (const p of [ann, bob, cat]) await p.page.waitForSelector("#cards .card", wait);
  await bob.page.waitForFunction(() => true);
  const turn = ann.seen.turns.at(-1);
  if (!turn) await fail("no turn came to the host's socket");
  // A valid call: the hand's highest prime, from the server's own query.
  const q = await (await fetch(`${base}/api/v1/query?cards=${turn.hand.join(",")}&any-values=1&ascii=1`)).json();
  if (q.primes.length === 0) await fail(`the first hand ${turn.hand} makes no prime`);
  const best = q.primes.at(-1);
  await ann.page.fill("#call", best.witness);
  await ann.page.press("#call", "Enter");
  for (const p of [ann, bob, cat]) {
    await p.page.waitForFunction(
      (v) => [...document.querySelectorAll("#calls li.good")].some((li) => li.textContent.includes("Ann") && li.textContent.includes(`= ${v}`)),
      best.value_text,
      wait,
    );
  }
  await bob.page.screenshot({ path: `${shots}/room-verdict-360x640.png`, fullPage: true });

  // A reload keeps Bob's seat.
  await bob.page.reload();
  await bob.page.waitForFunction(() => document.getElementById("status").textContent.includes("You are Bob"), null, wait);
  if (await bob.page.isVisible("#join-form")) await fail("the reload asked Bob for a seat again");

  // The table view shows the cards on the table.
  const table = await phone(1280, 800);
  await table.page.goto(`${base}/room/${code}/table`);
  await table.page.waitForSelector("#cards .card", wait);
  const cards = await table.page.$$eval("#cards .card .face", (f) => f.map((x) => x.textContent));
  if (cards.length !== 3) await fail(`the table view shows ${cards}`);
  if (await table.page.isVisible("#call-form")) await fail("the table view offers a call");
  await table.page.screenshot({ path: `${shots}/room-table-1280x800.png` });

  for (const [who, p, width] of [["Ann", ann, 390], ["Bob", bob, 360], ["Cat", cat, 390]]) {
    const scroll = await p.page.evaluate(() => document.documentElement.scrollWidth);
    if (scroll > width) await fail(`${who}'s page scrolls sideways to ${scroll} px`);
    if (p.seen.errors.length > 0) await fail(`${who}'s console: ${p.seen.errors.join("; ")}`);
  }
} catch (e) {
  await fail(String(e.stack || e));
}
await browser.close();

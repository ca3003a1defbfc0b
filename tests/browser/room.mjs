// Three phones in one game room, in Debian's headless Chromium: the host
// makes a room, two others join it by its code, the host starts; calls
// are tapped on the keypad (a claim that cannot be read is no call and
// the host calls again; a valid prime, and every phone sees the verdict);
// the host deals the next cards at once; a reload keeps the seat; a
// latecomer watches; the big screen shows the cards large; the host ends
// the game and every phone shows why, the records fitting the phone.
// Usage:
//   node room.mjs URL SCREENSHOT_DIR
// Exits 0 when every step shows what it should, 1 with the reason if not.
import { chromium } from "playwright-core";
import { audit, findings } from "./axe.mjs";

const audited = [];

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

/** Taps `claim` (ASCII, as the server's witnesses are written) on the
 * keypad of `page`: each number on an unused card key counting it, each
 * sign on its key. Typing nothing. */
async function tap(page, claim) {
  const names = { "*": "×", "/": "÷", "-": "−", "+": "+", "(": "(", ")": ")", "^": "^" };
  for (const token of claim.match(/\d+|[-+*/()^]/g)) {
    const key = /^\d/.test(token)
      ? page.locator(`#keypad button.card-key:not([disabled])[data-counts="${token}"]`).first()
      : page.getByRole("button", { name: names[token], exact: true });
    await key.click();
  }
  await page.getByRole("button", { name: "Call", exact: true }).click();
}

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
  await audit(ann.page, "the lobby", audited);

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
  // A claim that cannot be read (empty brackets): no call, and Ann is not
  // barred.
  const cardsAlone = turn.values.map(String);
  await tap(ann.page, `()${cardsAlone.join("+")}`);
  await ann.page.waitForFunction(() => document.getElementById("result").textContent.startsWith("Not a call"), null, wait);
  if (await ann.page.isHidden("#call-form")) await fail("a claim that cannot be read barred Ann");
  await ann.page.screenshot({ path: `${shots}/room-not-a-call-390x844.png`, fullPage: true });
  await audit(ann.page, "a turn, a claim not read", audited);
  await tap(ann.page, best.witness);
  for (const p of [ann, bob, cat]) {
    await p.page.waitForFunction(
      (v) => [...document.querySelectorAll("#calls li.good")].some((li) => li.textContent.includes("Ann") && li.textContent.includes(`= ${v}`)),
      best.value_text,
      wait,
    );
  }
  await bob.page.screenshot({ path: `${shots}/room-verdict-360x640.png`, fullPage: true });
  await audit(bob.page, "a verdict", audited);

  // The result counts down to the next cards; the host deals them now.
  await ann.page.waitForFunction(() => /Next cards in \d+ s/.test(document.getElementById("next-in").textContent), null, wait);
  await audit(ann.page, "between turns", audited);
  await ann.page.getByRole("button", { name: "Deal now" }).click();
  for (const p of [ann, bob, cat]) {
    await p.page.waitForFunction((n) => document.getElementById("turn-head").textContent === `Turn ${n}`, turn.turn + 1, wait);
  }

  // A reload keeps Bob's seat.
  await bob.page.reload();
  await bob.page.waitForFunction(() => document.querySelector("#seats .me")?.textContent === "Bob", null, wait);
  if (await bob.page.isVisible("#join-form")) await fail("the reload asked Bob for a seat again");

  // A latecomer opens the room's link: the game is on, so Dan watches.
  const dan = await phone(390, 844);
  await dan.page.goto(`${base}/room/${code}`);
  await dan.page.waitForSelector("#join-form:not([hidden])", wait);
  await dan.page.fill("#join-name", "Dan");
  await dan.page.click("#join-form button[type=submit]");
  await dan.page.waitForFunction(() => /watching/i.test(document.getElementById("status").textContent), null, wait);
  await dan.page.waitForSelector("#cards .card", wait);
  if (await dan.page.isVisible("#call-form")) await fail("a latecomer is offered a call");

  // The big screen: the cards at least a third of its height, the code
  // and QR in sight, no text under 24 px.
  const table = await phone(1920, 1080);
  await table.page.goto(`${base}/room/${code}/table`);
  await table.page.waitForSelector("#cards .card", wait);
  await table.page.screenshot({ path: `${shots}/room-table-1920x1080.png` });
  await audit(table.page, "the big screen", audited);
  const cards = await table.page.$$eval("#cards .card .face", (f) => f.map((x) => x.textContent));
  if (cards.length !== 3) await fail(`the table view shows ${cards}`);
  if (await table.page.isVisible("#call-form")) await fail("the table view offers a call");
  const cardHeight = await table.page.$eval("#cards .card", (c) => c.getBoundingClientRect().height);
  if (cardHeight < 1080 / 3) await fail(`the big screen's cards are ${cardHeight} px high`);
  for (const id of ["#code", "#qr"]) {
    const box = await table.page.$eval(id, (e) => { const r = e.getBoundingClientRect(); return r.bottom <= innerHeight && r.height > 0; });
    if (!box) await fail(`the big screen does not show ${id} without scrolling`);
  }
  const small = await table.page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((e) => e.offsetParent !== null && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
      .filter((e) => parseFloat(getComputedStyle(e).fontSize) < 24)
      .map((e) => `${e.tagName}#${e.id}.${e.className}: ${e.textContent.trim().slice(0, 30)}`),
  );
  if (small.length > 0) await fail(`text under 24 px on the big screen: ${small.join("; ")}`);

  // The host ends the game: every phone says why, who won, and the
  // records fit the phone.
  await ann.page.getByRole("button", { name: "End the game" }).click();
  for (const p of [ann, bob, cat, dan, table]) {
    await p.page.waitForFunction(() => /the host ended the game/i.test(document.querySelector("#over .why")?.textContent || ""), null, wait);
  }
  await bob.page.screenshot({ path: `${shots}/room-over-360x640.png`, fullPage: true });
  await table.page.screenshot({ path: `${shots}/room-table-over-1920x1080.png` });
  await audit(bob.page, "the end", audited);
  await audit(table.page, "the big screen's end", audited);
  const dark = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
  const night = await dark.newPage();
  await night.goto(`${base}/room/${code}/table`);
  await night.waitForSelector("#over .why", wait);
  await audit(night, "the end, dark", audited);

  for (const [who, p, width] of [["Ann", ann, 390], ["Bob", bob, 360], ["Cat", cat, 390], ["Dan", dan, 390]]) {
    const scroll = await p.page.evaluate(() => document.documentElement.scrollWidth);
    if (scroll > width) await fail(`${who}'s page scrolls sideways to ${scroll} px`);
    if (p.seen.errors.length > 0) await fail(`${who}'s console: ${p.seen.errors.join("; ")}`);
  }
  const bad = findings(audited);
  if (bad) await fail(bad);
} catch (e) {
  await fail(String(e.stack || e));
}
await browser.close();

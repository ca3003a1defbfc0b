// The page asks the server's JSON API (docs/api.md) and shows its answers;
// every rule, every prime, every card as shown and every word of a verdict
// comes from the server. Once a rule set's table has come, a hand of three
// cards is answered from it when the server cannot be reached.

import { $, ask, cardTokens, el, handText, plural, post, verdictLine } from "/common.js";
import { startPractice } from "/practice.js";

const handForm = $("hand-form");
const rulesForm = $("rules-form");
const claimForm = $("claim-form");
const answer = $("answer");
const verdict = $("verdict");
const network = $("network");

const RULES_KEY = "prime-time-rules";
const CARDS_KEY = "prime-time-cards";
const ONOFF = ["powers", "juxtapose", "high-primes"];
const FUNCTIONS = ["tri", "fact", "sqrt"];
/** Where the tables fetched are kept on the device (Cache Storage, where
 * the browser offers it: on this machine or over HTTPS). */
const TABLES = "prime-solve-tables";

/** The house rules chosen, as query parameters in a fixed order (the
 * table's address must be the same each time to be found offline). */
function ruleParams() {
  const f = rulesForm.elements;
  const p = new URLSearchParams();
  p.set("faces", f.faces.value);
  for (const rule of ONOFF) if (f[rule].checked) p.set(rule, "1");
  const functions = FUNCTIONS.filter((name) => f[name].checked);
  if (functions.length > 0) p.set("functions", functions.join(","));
  return p;
}

function saveRules() {
  localStorage.setItem(RULES_KEY, ruleParams().toString());
}

function restore() {
  const saved = new URLSearchParams(localStorage.getItem(RULES_KEY) || "");
  const f = rulesForm.elements;
  if (saved.has("faces")) f.faces.value = saved.get("faces");
  for (const rule of ONOFF) f[rule].checked = saved.get(rule) === "1";
  const functions = (saved.get("functions") || "").split(",");
  for (const name of FUNCTIONS) f[name].checked = functions.includes(name);
  const cards = localStorage.getItem(CARDS_KEY);
  if (cards) handForm.cards.value = cards;
}

// ---- The rule set's table, for answers without the server ----

/** The table of the current rules once fetched: { key, table }. */
let held = null;

function tablePath() {
  const p = ruleParams();
  p.set("steps", "1");
  return `/api/v1/table?${p}`;
}

/** Fetches the current rules' table in the background (the service
 * worker keeps a copy where the browser allows one). */
async function fetchTable() {
  const path = tablePath();
  if (held?.key === path) return;
  try {
    const table = await ask(path);
    if (path !== tablePath()) return;
    held = { key: path, table };
    refreshCrib();
    if ("caches" in self) {
      const copy = new Response(JSON.stringify(table), { headers: { "Content-Type": "application/json" } });
      await (await caches.open(TABLES)).put(path, copy);
    }
  } catch (err) {
    // A rule set too costly to sweep here, a busy server, or no network:
    // the crib says so and offers to try again.
    if (path !== tablePath()) return;
    const saved = await heldTable();
    if (saved) {
      refreshCrib();
      return;
    }
    tableError = err.message;
    refreshCrib();
  }
}

/** Why the current rules' table could not be had, if it could not. */
let tableError = null;

/** The table of the current rules: held in memory, or kept by the
 * service worker from an earlier visit. */
async function heldTable() {
  const path = tablePath();
  if (held?.key === path) return held.table;
  if (!("caches" in self)) return null;
  const copy = await caches.match(path);
  if (!copy) return null;
  held = { key: path, table: await copy.json() };
  return held.table;
}

/** The entry of the table for the cards typed, found by the keys the
 * server gave (no rule is applied here), or why not. */
function lookUp(table, text) {
  const tokens = cardTokens(text);
  if (tokens.length !== 3) return { why: "Without the server only hands of three cards can be answered." };
  const keys = [];
  for (const t of tokens) {
    const k = table.card_keys[t.toUpperCase()];
    if (k === undefined) return { why: `Without the server, ${t} is not read; tap the cards instead.` };
    keys.push(k);
  }
  keys.sort();
  const i = table.hand_keys[keys.join(" ")];
  if (i === undefined) return { why: "The pack cannot deal these three cards." };
  return { entry: table.hands[i] };
}

// ---- A hand's answer ----

function primeItem(p) {
  const item = el("li");
  const details = el("details");
  const summary = el("summary");
  summary.append(el("span", p.value_text, "prime"), document.createTextNode(`= ${p.witness}`));
  if (p.ways !== undefined) summary.append(el("span", `made ${plural(p.ways, "way", "ways")}`, "ways"));
  details.append(summary);
  const steps = el("ol", undefined, "steps");
  for (const s of p.steps || []) steps.append(el("li", s));
  if ((p.steps || []).length === 0) steps.append(el("li", "a card of the hand"));
  details.append(steps);
  item.append(details);
  return item;
}

function call(label, p) {
  const line = el("p", undefined, "call");
  line.append(el("strong", `${label}: `), document.createTextNode(`${p.value_text} = ${p.witness}`));
  return line;
}

/** The rules in words where the server gave them (a table kept from an
 * older server may not have them), else the rule set's name. */
const rulesText = (rules, ruleSet) => rules?.described ?? ruleSet;

/** The line naming the rules a hand was answered under. */
function rulesLine(rules, ruleSet) {
  const line = el("p", undefined, "note");
  line.append(el("strong", "Rules: "), document.createTextNode(rulesText(rules, ruleSet)));
  return line;
}

/** Draws a hand's answer from the server's JSON (a query, or a table's
 * entry): the quickest call, the best, and each prime with its witness
 * worked step by step on a tap. `faces` are the cards as the server wrote
 * them (as typed, without the server). */
function drawAnswer({ faces, hand, primes, simplest, rules, ruleSet, offline, difficulty, nearest }) {
  const parts = [];
  const cards = handText(faces, hand);
  if (primes.length === 0) {
    parts.push(el("p", `The hand ${cards} makes no prime.`, "bad"), rulesLine(rules, ruleSet));
    if (nearest) {
      const line = el("p", undefined, "note");
      line.append(
        el("strong", "Nearest prime above: "),
        document.createTextNode(`${nearest.value_text} = ${nearest.witness} (allowed with “primes above 97”)`),
      );
      parts.push(line);
    }
  } else {
    parts.push(el("p", `The hand ${cards} makes ${plural(primes.length, "prime", "primes")}.`), rulesLine(rules, ruleSet));
    const quick = primes.find((p) => p.value_text === String(simplest));
    if (quick) parts.push(call("Quickest call", quick));
    parts.push(call("Best call", primes[primes.length - 1]));
    if (typeof difficulty?.difficulty === "number" && difficulty.difficulty_word) {
      // The word and a bar; the number behind "why?".
      const word = difficulty.difficulty_word;
      const line = el("div", undefined, "difficulty");
      const bar = el("span", undefined, `bar ${word}`);
      bar.setAttribute("aria-hidden", "true");
      const why = el("details");
      why.append(
        el("summary", "why?"),
        el("p", `Difficulty ${difficulty.difficulty.toFixed(1)}: all the essentially different ways to its primes together are as easy to find as one way of that weight (+ − 1, × ÷ 2, ^ 3, …); lower is easier.`, "note"),
      );
      line.append(el("strong", `This hand is ${word}`), bar, why);
      parts.push(line);
    }
    const list = el("ul", undefined, "primes");
    list.append(...primes.map(primeItem));
    parts.push(el("p", "Tap a prime to see it worked out.", "note"), list);
  }
  if (offline) parts.push(el("p", "Answered on this device from the rule set's table: the server cannot be reached.", "note"));
  answer.replaceChildren(...parts);
}

/** Each lookup's number: an answer that comes back after a newer lookup
 * was asked is dropped. */
let asked = 0;
/** The cards of the hand on screen: the referee rules on this hand. */
let answered = null;

async function showPrimes(event) {
  event?.preventDefault();
  const cards = handForm.cards.value.trim();
  const mine = ++asked;
  const current = () => mine === asked;
  localStorage.setItem(CARDS_KEY, cards);
  const p = ruleParams();
  p.set("cards", cards);
  p.set("steps", "1");
  // The ways are counted for hands of up to three cards (four or more can
  // take a second, or be refused).
  if (cardTokens(cards).length <= 3) p.set("ways", "count");
  answered = null;
  verdict.replaceChildren();
  answer.replaceChildren(el("p", "Solving…", "note"));
  try {
    const q = await ask(`/api/v1/query?${p}`);
    if (!current()) return;
    online(true);
    answered = cards;
    drawAnswer({
      faces: q.cards, hand: q.hand, primes: q.primes, simplest: q.simplest_prime, rules: q.rules,
      ruleSet: q.rule_set, offline: false, difficulty: q, nearest: q.nearest_above,
    });
  } catch (err) {
    if (!current()) return;
    if (!err.offline) {
      answer.replaceChildren(el("p", err.message, "bad"));
      return;
    }
    online(false);
    const table = await heldTable();
    if (!current()) return;
    if (!table) {
      answer.replaceChildren(el("p", `${err.message} This rule set's table has not been fetched yet, so the hand cannot be answered here.`, "bad"));
      return;
    }
    const found = lookUp(table, cards);
    if (found.why) answer.replaceChildren(el("p", found.why, "bad"));
    else drawAnswer({
      faces: cardTokens(cards), hand: found.entry.hand, primes: found.entry.primes, simplest: found.entry.simplest_prime,
      rules: table.rules, ruleSet: table.rule_set, offline: true,
    });
  }
}

function online(yes) {
  network.hidden = yes;
  network.textContent = yes ? "" : "Offline: three-card hands are answered from the table kept on this device.";
}

async function rule(event) {
  event.preventDefault();
  if (answered === null) {
    verdict.replaceChildren(el("p", "First find the primes of a hand: the claim is ruled on that hand.", "bad"));
    return;
  }
  const p = ruleParams();
  p.set("cards", answered);
  p.set("claim", claimForm.claim.value.trim());
  verdict.replaceChildren(el("p", "Ruling…", "note"));
  try {
    verdict.replaceChildren(verdictLine(await ask(`/api/v1/check?${p}`)));
  } catch (err) {
    verdict.replaceChildren(el("p", err.message, "bad"));
  }
}

// ---- The card picker ----

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"];
const SUIT_SIGNS = { S: "♠", H: "♥", C: "♣", D: "♦" };
const SUIT_NAMES = { S: "spades", H: "hearts", C: "clubs", D: "diamonds" };
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };
let suit = "S";

function pickerSetup() {
  const ranks = document.querySelector("#picker .ranks");
  for (const rank of RANKS) {
    const b = el("button", rank === "JK" ? "Joker" : rank);
    b.type = "button";
    b.dataset.rank = rank;

    ranks.append(b);
  }
  ranks.addEventListener("click", (e) => {
    const rank = e.target.closest("button")?.dataset.rank;
    if (!rank) return;
    const token = rank === "JK" ? "JK" : rank + suit;
    const now = cardTokens(handForm.cards.value);
    const full = now.length >= 3;
    const cards = full ? [token] : [...now, token];
    handForm.cards.value = cards.join(" ");
    if (cards.length === 3) showPrimes();
    else {
      asked++;
      answered = null;
      answer.replaceChildren(el("p", `${3 - cards.length} more card${cards.length === 2 ? "" : "s"} to tap.`, "note"));
      verdict.replaceChildren();
    }
  });
  const suits = [...document.querySelectorAll("#picker .suits button")];
  const choose = (chosen) => {
    suit = chosen.dataset.suit;
    for (const b of suits) b.setAttribute("aria-pressed", String(b === chosen));
    for (const r of ranks.querySelectorAll("button")) {
      if (r.dataset.rank === "JK") continue;
      r.textContent = r.dataset.rank + SUIT_SIGNS[suit];
      r.setAttribute("aria-label", `${r.textContent}, ${RANK_NAMES[r.dataset.rank] || r.dataset.rank} of ${SUIT_NAMES[suit]}`);
      r.classList.toggle("red", suit === "H" || suit === "D");
    }
  };
  for (const b of suits) b.addEventListener("click", () => choose(b));
  choose(suits[0]);
  $("clear").addEventListener("click", () => {
    handForm.cards.value = "";
    asked++;
    answered = null;
    answer.replaceChildren();
    verdict.replaceChildren();
    handForm.cards.focus();
  });
}

// ---- The crib ----

function refreshCrib() {
  const body = $("crib-body");
  $("crib-pdf").href = `/api/v1/crib.pdf?${ruleParams()}`;
  const table = held?.key === tablePath() ? held.table : null;
  if (!table) {
    $("crib-head").textContent = "Every three-card hand of these rules: its quickest call and its best prime.";
    const parts = [el("p", tableError ? `The table of these rules could not be had: ${tableError}` : "The crib comes with the rule set's table, once the server has sent it.", tableError ? "bad" : "note")];
    if (tableError) {
      const again = el("button", "Try again", "second");
      again.type = "button";
      again.addEventListener("click", () => {
        tableError = null;
        refreshCrib();
        fetchTable();
      });
      parts.push(again);
    }
    body.replaceChildren(...parts);
    return;
  }
  $("crib-head").textContent = `Every three-card hand under these rules (${rulesText(table.rules, table.rule_set)}): its quickest call and its best prime (${table.hands.length} hands).`;
  const groups = new Map();
  for (const h of table.hands) {
    const low = h.hand[0];
    if (!groups.has(low)) groups.set(low, []);
    groups.get(low).push(h);
  }
  const parts = [];
  for (const [low, hands] of groups) {
    const d = el("details");
    d.append(el("summary", `Lowest card ${low} (${plural(hands.length, "hand", "hands")})`));
    const list = el("ul", undefined, "crib");
    for (const h of hands) {
      const li = el("li");
      li.append(el("span", h.hand.join(" "), "hand"));
      if (h.primes.length === 0) {
        li.append(el("span", "no prime", "bad"));
      } else {
        const quick = h.primes.find((p) => p.value_text === String(h.simplest_prime));
        const best = h.primes[h.primes.length - 1];
        if (quick) li.append(el("span", `quickest ${quick.value_text} = ${quick.witness}`));
        li.append(el("span", `best ${best.value_text} = ${best.witness}`));
      }
      list.append(li);
    }
    d.append(list);
    parts.push(d);
  }
  body.replaceChildren(...parts);
}

// ---- Tabs ----

function showTab(event) {
  const name = (location.hash || "#hand").slice(1);
  const known = ["hand", "practice", "crib", "together", "rules"].includes(name) ? name : "hand";
  for (const panel of document.querySelectorAll("[data-panel]")) {
    panel.hidden = panel.dataset.panel !== known;
  }
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.tab === known) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (known === "crib") refreshCrib();
  if (known === "together") updateLengths();
  // A tab chosen (not the page loading): focus moves to its heading, so a
  // screen reader reads where it is.
  if (event) {
    const heading = document.querySelector(`[data-panel="${known}"] h2:not([hidden])`);
    if (heading && heading.offsetParent !== null) {
      heading.tabIndex = -1;
      heading.focus();
    }
  }
}

// ---- Rooms ----

/** Beside each kind of game, about how long it lasts at this table (the
 * server simulates it); the form's words alone while it works. */
async function updateLengths() {
  const f = $("create-form").elements;
  const body = { ...Object.fromEntries(ruleParams()), seats: f.seats.value };
  const options = [...$("create-length").options];
  for (const o of options) o.textContent = o.dataset.words || (o.dataset.words = o.textContent);
  try {
    const lengths = await post("/api/v1/rooms/lengths", body);
    for (const o of options) {
      const known = lengths.games.find((g) => g.game === o.value);
      if (known?.minutes) o.textContent = `${o.dataset.words} · about ${known.minutes} min`;
    }
    $("create-length-note").textContent = `Lengths from games simulated between casual players, at about ${Math.round(lengths.seconds_per_turn)} s a turn.`;
  } catch (err) {
    $("create-length-note").textContent = "";
  }
}

async function createRoom(event) {
  event.preventDefault();
  const f = $("create-form").elements;
  const body = { ...Object.fromEntries(ruleParams()), name: f.name.value, seats: f.seats.value, bots: f.bots.value, pause: f.pause.value };
  // A short game: a target of cards, or a number of turns.
  const [key, value] = $("create-length").value.split("=");
  if (key) body[key] = value;
  $("create-error").textContent = "";
  try {
    const room = await post("/api/v1/rooms", body);
    localStorage.setItem(`prime-time-room-${room.code}`, room.token);
    location.assign(room.link);
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

function enterRoom(event) {
  event.preventDefault();
  const code = $("enter-code").value.replace(/[\s-]/g, "").toUpperCase();
  location.assign(`/room/${encodeURIComponent(code)}`);
}

restore();
pickerSetup();
$("create-form").addEventListener("submit", createRoom);
$("create-seats").addEventListener("change", updateLengths);
$("enter-form").addEventListener("submit", enterRoom);
handForm.addEventListener("submit", showPrimes);
claimForm.addEventListener("submit", rule);
rulesForm.addEventListener("change", () => {
  saveRules();
  held = null;
  tableError = null;
  refreshCrib();
  showPrimes();
  fetchTable();
});
window.addEventListener("hashchange", showTab);
window.addEventListener("online", () => online(true));
window.addEventListener("offline", () => online(false));
showTab();
showPrimes();
fetchTable();
startPractice({ ruleParams });
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}

// The practice drill: ten hands dealt by the server (or the day's ten),
// a clock, hints, each call ruled and scored by the server as `prime-solve
// practice` scores it, the drill summed up by the server, and the drills'
// history kept on this device.

import { $, ask, cardName, cardView, el, post, seconds, verdictLine } from "/common.js";
import { keypad } from "/keypad.js";

// The house rules the page has chosen (given by app.js, which imports
// this module).
let ruleParams;
const HISTORY_KEY = "prime-time-history";
const DAILY_KEY = "prime-time-daily";
const ROUNDS = 10;
/** Today's ten are numbered from this day, #1. */
const FIRST_DAY = Date.UTC(2026, 0, 1);

let drill = null;
let ticking = null;

/** The number of today's ten on `date` (YYYY-MM-DD), #1 on 2026-01-01. */
function dayNumber(date) {
  const [y, m, d] = date.split("-").map(Number);
  return Math.round((Date.UTC(y, m - 1, d) - FIRST_DAY) / 86400000) + 1;
}

/** The day's ten played on this device: date → its result, the last 30. */
function dailies() {
  try {
    const d = JSON.parse(localStorage.getItem(DAILY_KEY) || "{}");
    return d && typeof d === "object" ? d : {};
  } catch (err) {
    return {};
  }
}

/** Days in a row, up to `date`, whose ten were played here. */
function streak(date, played) {
  let n = 0;
  const day = new Date(`${date}T12:00:00`);
  for (;;) {
    const pad = (k) => String(k).padStart(2, "0");
    const key = `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
    if (!played[key]) return n;
    n += 1;
    day.setDate(day.getDate() - 1);
  }
}

/** Today's ten already played: its result, and the time to the next. */
function dailyDone() {
  const entry = dailies()[today()];
  const box = $("daily-done");
  if (!entry) {
    box.hidden = true;
    $("start-daily").disabled = false;
    return false;
  }
  const midnight = new Date();
  midnight.setHours(24, 0, 0, 0);
  const left = midnight - new Date();
  const hours = Math.floor(left / 3600000);
  const minutes = Math.floor((left % 3600000) / 60000);
  box.textContent = `Today's ten #${dayNumber(entry.date)}: ${entry.correct}/${entry.rounds}, ${entry.score} points; a streak of ${streak(today(), dailies())}. The next ten in ${hours} h ${minutes} min.`;
  box.hidden = false;
  $("start-daily").disabled = true;
  return true;
}

/** Today's date where the player is, as the server takes it. */
function today() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function show(part) {
  $("drill-start").hidden = part !== "start";
  $("drill").hidden = part !== "drill";
  $("drill-end").hidden = part !== "end";
}

function fail(err) {
  show("start");
  $("drill-start").append(el("p", err.message, "bad"));
}

async function begin(daily) {
  for (const old of $("drill-start").querySelectorAll(".bad")) old.remove();
  // The drill keeps the rules it started with, whatever the Rules tab
  // says meanwhile.
  if (daily && dailyDone()) return;
  drill = { daily, date: today(), deals: [], rounds: [], ruleSet: "", rulesJson: null, rules: ruleParams() };
  try {
    if (daily) {
      const p = new URLSearchParams(drill.rules);
      p.set("date", drill.date);
      const d = await ask(`/api/v1/daily?${p}`);
      drill.deals = d.deals;
      drill.ruleSet = d.rules.described;
      drill.rulesJson = d.rules;
    }
    await deal();
  } catch (err) {
    fail(err);
  }
}

/** The next hand: from the day's list, or a fresh deal. */
async function deal() {
  const i = drill.rounds.length;
  if (!drill.daily) {
    const d = await ask(`/api/v1/deal?${drill.rules}`);
    drill.deals.push(d);
    drill.ruleSet = d.rules.described;
    drill.rulesJson = d.rules;
  }
  const hand = drill.deals[i];
  drill.hand = hand;
  drill.hints = 0;
  show("drill");
  $("drill-head").textContent = `${drill.daily ? `Today's ten #${dayNumber(drill.date)}` : "Ten hands"} · hand ${i + 1} of ${ROUNDS}`;
  $("drill-rules").textContent = `Rules: ${drill.ruleSet}.`;
  const cards = $("drill-cards");
  cards.replaceChildren(...hand.cards.map((c, k) => cardView(c, hand.values[k])));
  cards.setAttribute("aria-label", `The cards: ${hand.cards.map(cardName).join(", ")}`);
  $("drill-announce").textContent = `Hand ${i + 1}: ${hand.cards.map(cardName).join(" ")}`;
  $("hint-text").textContent = "";
  $("ruling").replaceChildren();
  $("next").hidden = true;
  $("call-form").hidden = false;
  drill.pad = keypad($("drill-keypad"), $("call"), $("drill-call"), hand.cards, hand.values, drill.rulesJson);
  $("drill-keypad").querySelector("button")?.focus();
  drill.started = performance.now();
  clearInterval(ticking);
  ticking = setInterval(tick, 100);
  tick();
}

function tick() {
  $("clock").textContent = seconds(performance.now() - drill.started);
}

function hint() {
  const hints = drill.hand.hints;
  const k = drill.hints;
  $("hint-text").textContent =
    hints.length === 0
      ? "Hint: this hand makes no prime; pass."
      : k < hints.length
        ? `Hint: this hand makes ${hints[k]}.`
        : "Hint: no more primes to hint at.";
  drill.hints = k + 1;
}

async function answer(claim) {
  const ms = Math.round(performance.now() - drill.started);
  clearInterval(ticking);
  tick();
  $("call-form").hidden = true;
  const body = { ...Object.fromEntries(drill.rules), cards: drill.hand.tokens.join(" "), claim, ms, hints: drill.hints };
  let r;
  try {
    r = await post("/api/v1/practice", body);
  } catch (err) {
    // Not ruled: the hand goes on, and so does its clock.
    $("ruling").replaceChildren(el("p", `${err.message} Try again.`, "bad"));
    $("call-form").hidden = false;
    ticking = setInterval(tick, 100);
    return;
  }
  const valid = r.verdict?.valid === true;
  drill.rounds.push({ valid, score: r.score, ms, passed: !r.verdict });
  const parts = [];
  if (!r.verdict) parts.push(el("p", r.primes.length === 0 ? "Passed: right, this hand makes no prime." : "Passed.", "note"));
  else parts.push(verdictLine(r.verdict, valid ? `${r.score} points.` : ""));
  const missed = r.primes.filter((p) => r.missed.map(String).includes(p.value_text));
  if (r.primes.length === 0) parts.push(el("p", "This hand makes no prime.", "note"));
  else if (missed.length > 0) {
    parts.push(el("p", valid ? "It also makes:" : "It makes:", "note"));
    const list = el("ul", undefined, "primes");
    for (const p of missed) {
      const li = el("li");
      li.append(el("span", p.value_text, "prime"), document.createTextNode(`= ${p.witness}`));
      list.append(li);
    }
    parts.push(list);
  }
  $("ruling").replaceChildren(...parts);
  $("drill-announce").textContent = parts.map((p) => p.textContent).join(" ");
  const next = $("next");
  next.textContent = drill.rounds.length < ROUNDS ? "Next hand" : "See the result";
  next.hidden = false;
  next.focus();
}

/** The drill's result as text to share: the marks of each hand, never
 * the hands themselves. */
function shareText(entry, days) {
  const marks = entry.marks.map((m) => (m === "valid" ? "🟩" : m === "pass" ? "⬜" : "🟥")).join("");
  const run = days > 1 ? ` · a streak of ${days} days` : "";
  return `Prime Time, today's ten #${dayNumber(entry.date)}\n${marks} ${entry.correct}/${entry.rounds} · ${entry.score} points${run}`;
}

/** The drill's end: summed up by the server, kept in the history, and
 * for today's ten a result to share. */
async function finish() {
  const rounds = drill.rounds;
  let s;
  try {
    s = await post("/api/v1/practice/summary", { rounds: rounds.map(({ valid, ms, score }) => ({ valid, ms, score })) });
  } catch (err) {
    // Not summed up: the last hand's ruling stays, and so does its button.
    $("ruling").append(el("p", `${err.message} Try again.`, "bad"));
    return;
  }
  const entry = {
    when: new Date().toISOString(),
    daily: drill.daily,
    date: drill.date,
    ruleSet: drill.ruleSet,
    rounds: s.rounds,
    correct: s.correct,
    score: s.score,
    medianMs: s.median_ms,
    marks: rounds.map((r) => (r.valid ? "valid" : r.passed ? "pass" : "wrong")),
  };
  const history = loadHistory();
  history.unshift(entry);
  localStorage.setItem(HISTORY_KEY, JSON.stringify(history.slice(0, 50)));
  drawHistory();
  const end = $("drill-end");
  const parts = [
    el("h2", drill.daily ? `Today's ten #${dayNumber(drill.date)}` : "Ten hands"),
    el("p", `${s.correct} of ${s.rounds} called · ${s.score} points${s.median_ms === null ? "" : ` · median ${seconds(s.median_ms)} a call`}`, "result"),
  ];
  if (drill.daily) {
    const played = dailies();
    played[drill.date] = entry;
    // The last 30 days only.
    const kept = Object.keys(played).sort().slice(-30);
    localStorage.setItem(DAILY_KEY, JSON.stringify(Object.fromEntries(kept.map((d) => [d, played[d]]))));
    const text = shareText(entry, streak(drill.date, played));
    const box = el("textarea", undefined, "share");
    box.value = text;
    box.readOnly = true;
    box.setAttribute("aria-label", "Your result, to share");
    parts.push(box);
    if (navigator.share || navigator.clipboard) {
      const share = el("button", navigator.share ? "Share the result" : "Copy the result");
      share.type = "button";
      share.id = "share";
      share.addEventListener("click", async () => {
        try {
          if (navigator.share) await navigator.share({ text });
          else await navigator.clipboard.writeText(text);
          share.textContent = navigator.share ? "Shared" : "Copied";
        } catch (err) {
          box.select();
          share.textContent = "Selected: copy it from the box";
        }
      });
      parts.push(share);
    } else {
      parts.push(el("p", "Select the text in the box to copy it.", "note"));
    }
  }
  const again = el("button", "Practise again", "second");
  again.type = "button";
  again.addEventListener("click", () => {
    show("start");
    dailyDone();
    $("start-drill").focus();
  });
  parts.push(again);
  end.replaceChildren(...parts);
  show("end");
  parts[0].tabIndex = -1;
  parts[0].focus();
}

function loadHistory() {
  try {
    const h = JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]");
    return Array.isArray(h) ? h : [];
  } catch (err) {
    return [];
  }
}

function drawHistory() {
  const list = $("history");
  const history = loadHistory();
  if (history.length === 0) {
    list.replaceChildren(el("li", "None yet: your drills are kept on this device.", "note empty"));
    return;
  }
  list.replaceChildren(
    ...history.slice(0, 20).map((h) =>
      el("li", `${h.date} · ${h.daily ? `today's ten #${dayNumber(h.date)}` : "ten hands"} · ${h.correct}/${h.rounds} · ${h.score} points`),
    ),
  );
}

export function startPractice(page) {
  ({ ruleParams } = page);
  $("start-drill").addEventListener("click", () => begin(false));
  $("start-daily").addEventListener("click", () => begin(true));
  $("call-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const claim = $("call").value.trim();
    if (claim === "?") {
      $("call").value = "";
      hint();
    } else if (claim !== "") answer(claim);
  });
  $("hint").addEventListener("click", hint);
  $("pass").addEventListener("click", () => answer(""));
  $("next").addEventListener("click", () => {
    if (drill.rounds.length < ROUNDS) deal().catch(fail);
    else finish();
  });
  drawHistory();
  dailyDone();
  show("start");
}

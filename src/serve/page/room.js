// A game room (docs/protocol.md): this phone's seat, or the table view at
// /room/CODE/table (also a latecomer's view of a game in progress). Every
// deal, verdict and result comes from the server; the page shows them and
// sends this seat's calls, tapped on the keypad or typed. The seat's token
// is kept on this device, so a reload or a dropped connection keeps the
// seat.

import { $, el, cardView, cardName, made, seconds } from "/common.js";
import { keypad } from "/keypad.js";

const parts = location.pathname.split("/").filter(Boolean);
const code = (parts[1] || "").toUpperCase();
const tableView = parts[2] === "table";
const TOKEN_KEY = `prime-time-room-${code}`;
const PING_MS = 20000;

let ws = null;
let me = null;
let host = false;
let watching = tableView;
let seats = [];
let rules = null;
let describedRules = "";
let phase = "lobby";
let turn = null;
let started = 0;
let ticking = null;
let counting = null;
let retry = 0;
let barred = false;
let pad = null;
let lastOver = null;
// Connections closed before the room said anything: past a few, the room
// is gone (or this seat's token is no longer its), and the page stops.
let unanswered = 0;

function name(seat) {
  return seats[seat]?.name || `seat ${seat + 1}`;
}

/** The status line: what is happening now, in a few words. */
function status(text) {
  $("status").textContent = text;
}

/** Said to a screen reader: a deal, a verdict, the end. */
function announce(text) {
  $("announce").textContent = text;
}

function who() {
  if (tableView) return "Table view";
  if (me === null) return "You are watching";
  return `You are ${name(me)}${host ? ", the host" : ""}`;
}

function show(section) {
  for (const id of ["lobby", "game", "over"]) $(id).hidden = id !== section;
  $("host-controls").hidden = !host || tableView || section !== "game";
}

/** A control for the host beside another person's seat. */
function seatControl(label, message) {
  const b = el("button", label, "quiet small");
  b.type = "button";
  b.addEventListener("click", () => send(message));
  return b;
}

function drawSeats(list) {
  if (list) seats = list;
  // The host role can move (passed on, or the host away): the seats say.
  const wasHost = host;
  host = me !== null && Boolean(seats[me]?.host);
  if (host !== wasHost && phase === "over" && lastOver) gameOver(lastOver);
  $("seats").replaceChildren(
    ...seats.map((s) => {
      const li = el("li");
      const label = s.kind === "bot" ? `${s.name}` : s.taken ? s.name : "(free)";
      li.append(el("span", label, s.seat === me ? "me" : ""));
      const notes = [];
      if (s.host) notes.push("host");
      if (s.kind === "person" && s.taken && !s.connected) notes.push("away");
      if (s.away) notes.push("a bot plays");
      if (s.held !== null && s.held !== undefined) notes.push(`${s.held} cards`);
      if (s.won !== null && s.won !== undefined) notes.push(`${s.won} won`);
      if (notes.length) li.append(el("span", ` · ${notes.join(" · ")}`, "note"));
      if (host && !tableView && s.kind === "person" && s.taken && s.seat !== me) {
        const controls = el("span", undefined, "seat-controls");
        if (phase === "turn" || phase === "between") {
          controls.append(seatControl("Give to a bot", { type: "hand_over", seat: s.seat }));
        }
        controls.append(
          seatControl("Remove", { type: "remove", seat: s.seat }),
          seatControl("Make host", { type: "make_host", seat: s.seat }),
        );
        li.append(controls);
      }
      return li;
    }),
  );
  const missing = seats.filter((s) => !s.taken).length;
  $("start").disabled = missing > 0;
  $("start").textContent = missing > 0 ? `Waiting for ${missing} more` : "Start the game";
  $("start").hidden = !host || tableView;
  $("host-controls").hidden = !host || tableView || $("game").hidden;
}

function stopCountdown() {
  clearInterval(counting);
  counting = null;
  $("next-in").textContent = "";
}

function drawTurn(m) {
  turn = m;
  phase = "turn";
  barred = false;
  stopCountdown();
  show("game");
  $("turn-head").textContent = `Turn ${m.turn}`;
  $("cards").replaceChildren(
    ...m.cards.map((c, i) => cardView(c, m.values[i], [m.owners[i] === null ? "stock" : name(m.owners[i])])),
  );
  const said = `Turn ${m.turn}: ${m.cards.map(cardName).join(" ")}`;
  $("cards").setAttribute("aria-label", `The cards: ${m.cards.map(cardName).join(", ")}`);
  announce(said);
  const mine = !watching && me !== null && m.seats.includes(me);
  $("call-form").hidden = !mine;
  $("result").textContent = mine || watching ? "" : "You have no card in this turn.";
  status(mine ? `Turn ${m.turn}: your call` : watching && !tableView ? `Turn ${m.turn} · you are watching` : `Turn ${m.turn}`);
  $("next").hidden = true;
  $("ready").textContent = "";
  $("calls").replaceChildren();
  started = performance.now();
  clearInterval(ticking);
  ticking = setInterval(() => {
    $("clock").textContent = seconds(performance.now() - started);
  }, 100);
  if (mine) pad = keypad($("keypad"), $("call"), $("call-button"), m.cards, m.values, rules);
  if (m.held) drawSeats(seats.map((s, i) => ({ ...s, held: m.held[i] })));
  if (mine) $("keypad").querySelector("button")?.focus();
}

function verdict(m) {
  const line = el("li");
  const whom = el("strong", `${m.name}: `);
  const what = m.claim ?? (m.valid ? m.witness : "a call");
  const text = m.valid ? `${made(what, m.value)} ✓` : `${m.claim ?? `called ${m.value}`} ✗ ${m.fault}`;
  line.append(whom, document.createTextNode(text));
  line.className = m.valid ? "good" : "bad";
  $("calls").append(line);
  announce(`${m.name}: ${text}`);
  if (m.seat === me && !m.valid) {
    barred = true;
    $("call-form").hidden = true;
    $("result").textContent = "A wrong call: you are out of this turn.";
  }
  if (m.seat === me && m.valid) $("call-form").hidden = true;
}

function notACall(m) {
  if (!turn || m.turn !== turn.turn) return;
  const text = `Not a call: ${m.why}. Call again.`;
  $("result").textContent = text;
  announce(text);
  pad?.clear();
}

/** The next cards' countdown, from the server's pause. */
function countdown(ms) {
  stopCountdown();
  if (ms === null || ms === undefined) {
    $("next-in").textContent = "The next cards come when everyone is ready.";
    return;
  }
  const until = performance.now() + ms;
  const draw = () => {
    const left = Math.max(0, Math.ceil((until - performance.now()) / 1000));
    $("next-in").textContent = `Next cards in ${left} s`;
  };
  draw();
  counting = setInterval(draw, 250);
}

function result(m) {
  clearInterval(ticking);
  phase = "between";
  $("call-form").hidden = true;
  const r = $("result");
  if (m.type === "won") r.textContent = `${name(m.seat)} takes the cards with ${m.prime}.`;
  else if (m.why === "tie") r.textContent = `A tie (${m.seats.map(name).join(", ")}): the cards are buried.`;
  else if (m.why === "no prime") r.textContent = "These cards make no prime: buried.";
  else r.textContent = "Nobody called: the cards are buried.";
  announce(r.textContent);
  status(`Turn ${m.turn}: ${r.textContent}`);
  if (m.held) drawSeats(seats.map((s, i) => ({ ...s, held: m.held[i] })));
  countdown(m.next_in_ms);
  if (!watching && me !== null) {
    $("next").hidden = false;
    $("next").focus();
  }
}

function gameOver(m) {
  lastOver = m;
  clearInterval(ticking);
  stopCountdown();
  phase = "over";
  show("over");
  const over = $("over");
  const winner = m.winner === null ? "Nobody" : name(m.winner);
  const rows = m.records.map((r) => {
    const tr = el("tr");
    tr.append(el("th", r.name));
    const median = r.median_ms === null ? "–" : seconds(r.median_ms);
    for (const v of [r.held, r.won, `${r.valid}/${r.wrong}`, median, r.best ?? "–"]) tr.append(el("td", String(v)));
    tr.firstChild.setAttribute("scope", "row");
    return tr;
  });
  const table = el("table", undefined, "records");
  const head = el("tr");
  for (const h of ["Player", "Cards", "Won", "Valid / wrong", "Median", "Best"]) {
    const th = el("th", h);
    th.setAttribute("scope", "col");
    head.append(th);
  }
  table.append(el("caption", `Game ${m.game}: ${m.turns} turns`, "note"), head, ...rows);
  const heading = el("h2", `${winner} wins`);
  heading.tabIndex = -1;
  const partsOver = [heading, el("p", m.why, "why"), table];
  if (host && !tableView) {
    const again = el("button", "Rematch, same seats");
    again.type = "button";
    again.addEventListener("click", () => send({ type: "start" }));
    partsOver.push(again);
  }
  if (watching && !tableView && seats.some((s) => !s.taken)) {
    const take = el("button", "Take a seat for the rematch");
    take.type = "button";
    take.addEventListener("click", () => {
      $("join-form").hidden = false;
      $("join-name").focus();
    });
    partsOver.push(take);
  }
  over.replaceChildren(...partsOver);
  status("Game over.");
  announce(`Game over. ${m.why}`);
  heading.focus();
}

function state(m) {
  me = m.you;
  host = m.host;
  rules = m.rules;
  describedRules = m.rules?.described ?? "";
  phase = m.phase;
  watching = tableView || me === null;
  drawSeats(m.seats);
  $("title").textContent = `Room ${m.code}${tableView ? " · table" : ""}`;
  $("invite").hidden = false;
  $("code").textContent = m.code;
  // The server's address on the local network, where it listens there.
  const link = m.link || `${location.origin}/room/${m.code}`;
  $("link").href = link;
  $("link").textContent = link;
  $("big-screen").href = `/room/${m.code}/table`;
  $("lan-note").hidden = Boolean(m.link) || !/^(127\.|localhost$|\[::1\]$)/.test(location.hostname);
  $("qr").src = `/api/v1/rooms/${m.code}/qr.svg`;
  $("start").hidden = !host || tableView;
  $("rules").textContent = describedRules ? `Rules: ${describedRules}.` : "";
  if (m.phase === "lobby") {
    show("lobby");
    const missing = m.seats.filter((s) => !s.taken).length;
    status(`${who()}. ${missing > 0 ? `Waiting for ${missing} more to take a seat.` : host ? "Everyone is here: start when ready." : "Waiting for the host to start."}`);
  } else if (m.phase === "over" && m.game_over) {
    gameOver(m.game_over);
  } else {
    show("game");
    status(`${who()}. The game is on.`);
  }
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function receive(event) {
  let m;
  try {
    m = JSON.parse(event.data);
  } catch (err) {
    return;
  }
  switch (m.type) {
    case "state": state(m); break;
    case "seats": drawSeats(m.seats); break;
    case "preparing": status("Starting: dealing the cards…"); break;
    case "start":
      drawSeats(m.seats);
      show("game");
      $("calls").replaceChildren();
      status(`Game ${m.game}: dealing…`);
      break;
    case "turn": drawTurn(m); break;
    case "verdict": verdict(m); break;
    case "not_a_call": notACall(m); break;
    case "passed": $("calls").append(el("li", `${name(m.seat)} passes.`, "note")); break;
    case "won": case "buried": result(m); break;
    case "ready": $("ready").textContent = `Ready: ${m.ready.map(name).join(", ")}`; break;
    case "game_over": gameOver(m); break;
    case "error":
      // A refusal of a call for a turn that is over says nothing of this one.
      if (m.turn === undefined || !turn || m.turn === turn.turn) status(m.error);
      if (/removed you/.test(m.error)) leave("The host has removed you from this seat: take a seat again to play.");
      break;
    default: break;
  }
}

/** This device's seat is no more: the token goes, and the join form
 * comes back. */
function leave(why) {
  localStorage.removeItem(TOKEN_KEY);
  stopped = true;
  if (ws) ws.close();
  status(why);
  $("join-form").hidden = false;
}

let stopped = false;

function connect() {
  if (stopped) return;
  const token = localStorage.getItem(TOKEN_KEY);
  if (!token && !watching) {
    $("join-form").hidden = false;
    status(`Room ${code}: take a seat.`);
    $("join-name").focus();
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = watching || !token ? "watch=1" : `token=${encodeURIComponent(token)}`;
  ws = new WebSocket(`${scheme}://${location.host}/api/v1/rooms/${code}/ws?${query}`);
  let answered = false;
  ws.addEventListener("message", (event) => {
    if (!answered) {
      answered = true;
      unanswered = 0;
      retry = 0;
    }
    receive(event);
  });
  ws.addEventListener("close", () => {
    ws = null;
    if (stopped) return;
    if (!answered) unanswered += 1;
    if (unanswered >= 4) {
      status("The room cannot be reached: it may have closed, or this seat is no longer yours.");
      return;
    }
    retry = Math.min(retry + 1, 5);
    status("Connection lost: reconnecting…");
    setTimeout(connect, retry * 1000);
  });
}

async function join(event) {
  event.preventDefault();
  $("join-error").textContent = "";
  try {
    const response = await fetch(`/api/v1/rooms/${code}/join`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: $("join-name").value }),
    });
    const body = await response.json();
    if (response.status === 409 && /started/.test(body.error || "")) {
      // A game in progress: watch it, and take a seat at the rematch.
      $("join-form").hidden = true;
      watching = true;
      status("The game is on: you are watching, and may take a free seat at the rematch.");
      if (ws) ws.close();
      else connect();
      return;
    }
    if (!response.ok) throw new Error(body.error || `The server answered ${response.status}.`);
    localStorage.setItem(TOKEN_KEY, body.token);
    $("join-form").hidden = true;
    watching = false;
    stopped = false;
    unanswered = 0;
    if (ws) ws.close();
    else connect();
  } catch (err) {
    $("join-error").textContent = err.message;
  }
}

$("join-form").addEventListener("submit", join);
$("start").addEventListener("click", () => send({ type: "start" }));
$("call-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const claim = $("call").value.trim();
  if (claim && !barred && turn) {
    send({ type: "call", turn: turn.turn, claim });
    // Once until the referee answers.
    $("call-button").disabled = true;
  }
});
$("pass").addEventListener("click", () => {
  if (turn) send({ type: "pass", turn: turn.turn });
  $("call-form").hidden = true;
});
$("next").addEventListener("click", () => {
  send({ type: "next" });
  $("next").hidden = true;
});
$("deal-now").addEventListener("click", () => send({ type: "deal_now" }));
$("end-game").addEventListener("click", () => send({ type: "end" }));
setInterval(() => send({ type: "ping" }), PING_MS);
if (tableView) document.body.classList.add("table-view");
connect();

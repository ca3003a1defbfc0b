// A game room (docs/protocol.md): this phone's seat, or the table view at
// /room/CODE/table. Every deal, verdict and result comes from the server;
// the page shows them and sends this seat's calls. The seat's token is
// kept on this device, so a reload or a dropped connection keeps the seat.

import { $, el, cardView, cardName, made, seconds } from "/common.js";

const parts = location.pathname.split("/").filter(Boolean);
const code = (parts[1] || "").toUpperCase();
const tableView = parts[2] === "table";
const TOKEN_KEY = `prime-time-room-${code}`;
const PING_MS = 20000;

let ws = null;
let me = null;
let host = false;
let seats = [];
let turn = null;
let started = 0;
let ticking = null;
let retry = 0;
let barred = false;

function name(seat) {
  return seats[seat]?.name || `seat ${seat + 1}`;
}

function status(text) {
  $("status").textContent = text;
}

function show(section) {
  for (const id of ["lobby", "game", "over"]) $(id).hidden = id !== section;
}

function drawSeats(list) {
  if (list) seats = list;
  $("seats").replaceChildren(
    ...seats.map((s) => {
      const li = el("li");
      const who = s.kind === "bot" ? `${s.name}` : s.taken ? s.name : "(free)";
      li.append(el("span", who, s.seat === me ? "me" : ""));
      const notes = [];
      if (s.seat === 0) notes.push("host");
      if (s.kind === "person" && s.taken && !s.connected) notes.push("away");
      if (s.away) notes.push("played for");
      if (s.held !== null && s.held !== undefined) notes.push(`${s.held} cards`);
      if (notes.length) li.append(el("span", ` · ${notes.join(" · ")}`, "note"));
      return li;
    }),
  );
  const missing = seats.filter((s) => !s.taken).length;
  $("start").disabled = missing > 0;
  $("start").textContent = missing > 0 ? `Waiting for ${missing} more` : "Start the game";
}

function drawTurn(m) {
  turn = m;
  barred = false;
  show("game");
  $("turn-head").textContent = `Turn ${m.turn}`;
  $("cards").replaceChildren(
    ...m.cards.map((c, i) => cardView(c, m.values[i], [m.owners[i] === null ? "stock" : name(m.owners[i])])),
  );
  $("cards").setAttribute("aria-label", `The cards: ${m.cards.map(cardName).join(", ")}`);
  const mine = me !== null && m.seats.includes(me);
  $("call-form").hidden = tableView || !mine;
  $("result").textContent = mine || tableView ? "" : "You have no card in this turn.";
  $("next").hidden = true;
  $("ready").textContent = "";
  $("calls").replaceChildren();
  started = performance.now();
  clearInterval(ticking);
  ticking = setInterval(() => {
    $("clock").textContent = seconds(performance.now() - started);
  }, 100);
  if (!$("call-form").hidden) {
    $("call").value = "";
    $("call").focus();
  }
  if (m.held) drawSeats(seats.map((s, i) => ({ ...s, held: m.held[i] })));
}

function verdict(m) {
  const line = el("li");
  const who = el("strong", `${m.name}: `);
  const what = m.claim ?? (m.valid ? m.witness : "a call");
  const text = m.valid ? `${made(what, m.value)} ✓` : `${m.claim ?? `called ${m.value}`} ✗ ${m.fault}`;
  line.append(who, document.createTextNode(text));
  line.className = m.valid ? "good" : "bad";
  $("calls").append(line);
  if (m.seat === me && !m.valid) {
    barred = true;
    $("call-form").hidden = true;
    $("result").textContent = "A wrong call: you are out of this turn.";
  }
  if (m.seat === me && m.valid) $("call-form").hidden = true;
}

function notACall(m) {
  if (!turn || m.turn !== turn.turn) return;
  $("result").textContent = `Not a call: ${m.why}. Call again.`;
  $("call").select();
}

function result(m) {
  clearInterval(ticking);
  $("call-form").hidden = true;
  const r = $("result");
  if (m.type === "won") r.textContent = `${name(m.seat)} takes the cards with ${m.prime}.`;
  else if (m.why === "tie") r.textContent = `A tie (${m.seats.map(name).join(", ")}): the cards are buried.`;
  else if (m.why === "no prime") r.textContent = "These cards make no prime: buried.";
  else r.textContent = "Nobody called: the cards are buried.";
  if (m.held) drawSeats(seats.map((s, i) => ({ ...s, held: m.held[i] })));
  if (!tableView && me !== null) {
    $("next").hidden = false;
    $("next").focus();
  }
}

function gameOver(m) {
  clearInterval(ticking);
  show("over");
  const over = $("over");
  const winner = m.winner === null ? "Nobody" : name(m.winner);
  const rows = m.records.map((r) => {
    const tr = el("tr");
    const median = r.median_ms === null ? "–" : seconds(r.median_ms);
    for (const v of [r.name, r.held, r.won, r.valid, r.wrong, median, r.best ?? "–"]) tr.append(el("td", String(v)));
    return tr;
  });
  const table = el("table", undefined, "records");
  const head = el("tr");
  for (const h of ["Player", "Cards", "Won", "Valid", "Wrong", "Median", "Best"]) head.append(el("th", h));
  table.append(head, ...rows);
  const parts = [el("h2", `${winner} wins`), el("p", `${m.turns} turns.`, "note"), table];
  if (host && !tableView) {
    const again = el("button", "Rematch, same seats");
    again.type = "button";
    again.addEventListener("click", () => send({ type: "start" }));
    parts.push(again);
  }
  over.replaceChildren(...parts);
}

function state(m) {
  me = m.you;
  host = m.host;
  drawSeats(m.seats);
  $("title").textContent = `Room ${m.code}${tableView ? " · table" : ""}`;
  status(tableView ? `Table view · ${m.rule_set}` : `You are ${me === null ? "watching" : name(me)} · ${m.rule_set}`);
  $("invite").hidden = false;
  $("code").textContent = m.code;
  // The server's address on the local network, where it listens there.
  const link = m.link || `${location.origin}/room/${m.code}`;
  $("link").href = link;
  $("link").textContent = link;
  $("qr").src = `/api/v1/rooms/${m.code}/qr.svg`;
  $("start").hidden = !host || tableView;
  if (m.phase === "lobby") show("lobby");
  else if (m.phase === "over" && m.game_over) gameOver(m.game_over);
  else show("game");
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
    case "preparing": status("Working out every hand this table can show…"); break;
    case "start": drawSeats(m.seats); show("game"); $("calls").replaceChildren(); break;
    case "turn": drawTurn(m); break;
    case "verdict": verdict(m); break;
    case "not_a_call": notACall(m); break;
    case "passed": $("calls").append(el("li", `${name(m.seat)} passes.`, "note")); break;
    case "won": case "buried": result(m); break;
    case "ready": $("ready").textContent = `Ready: ${m.ready.map(name).join(", ")}`; break;
    case "game_over": gameOver(m); break;
    case "error": status(m.error); break;
    default: break;
  }
}

function connect() {
  const token = localStorage.getItem(TOKEN_KEY);
  if (!token && !tableView) {
    $("join-form").hidden = false;
    status(`Room ${code}: take a seat.`);
    $("join-name").focus();
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = tableView ? "watch=1" : `token=${encodeURIComponent(token)}`;
  ws = new WebSocket(`${scheme}://${location.host}/api/v1/rooms/${code}/ws?${query}`);
  ws.addEventListener("open", () => {
    retry = 0;
  });
  ws.addEventListener("message", receive);
  ws.addEventListener("close", () => {
    ws = null;
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
    if (!response.ok) throw new Error(body.error || `The server answered ${response.status}.`);
    localStorage.setItem(TOKEN_KEY, body.token);
    $("join-form").hidden = true;
    connect();
  } catch (err) {
    $("join-error").textContent = err.message;
  }
}

$("join-form").addEventListener("submit", join);
$("start").addEventListener("click", () => send({ type: "start" }));
$("call-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const claim = $("call").value.trim();
  if (claim && !barred && turn) send({ type: "call", turn: turn.turn, claim });
});
$("pass").addEventListener("click", () => {
  if (turn) send({ type: "pass", turn: turn.turn });
  $("call-form").hidden = true;
});
$("next").addEventListener("click", () => {
  send({ type: "next" });
  $("next").hidden = true;
});
setInterval(() => send({ type: "ping" }), PING_MS);
if (tableView) document.body.classList.add("table-view");
connect();

// What the page's scripts share: finding and making elements, asking the
// API, a card as it lies on the table, a hand's cards in a line, and the
// referee's verdict in a sentence. The cards, the values, the verdicts and
// every figure come from the server; this only lays them out.

export const $ = (id) => document.getElementById(id);

/** An element with its text and class. */
export function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** `1 prime`, `2 primes`. */
export const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** Milliseconds as the clock shows them: `4.2 s`. */
export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** A path of the API: its JSON, or an Error with the server's words
 * (`offline` set when the server could not be reached at all). */
export async function ask(path, init) {
  let response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" }, ...init });
  } catch (err) {
    const e = new Error("The server cannot be reached.");
    e.offline = true;
    throw e;
  }
  let body;
  try {
    body = await response.json();
  } catch (err) {
    throw new Error(`The server answered ${response.status} without JSON.`);
  }
  if (!response.ok) throw new Error(body.error || `The server answered ${response.status}.`);
  return body;
}

/** POSTs `body` as JSON to a path of the API ({@link ask}). */
export const post = (path, body) =>
  ask(path, { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });

/** The cards of a text as the server reads them: separated by commas or
 * white space (docs/api.md). Only for what the page does without asking:
 * counting the cards typed, and finding a hand in a kept table when the
 * server cannot be reached. */
export const cardTokens = (text) => text.split(/[\s,]+/).filter(Boolean);

/** A card as the server writes it (`Q♥`, `10♣`, `JK`), for a reader: the
 * Joker by name. */
export const cardName = (face) => (face === "JK" ? "Joker" : face);

/** The cards of a hand in a line, as the server wrote them and in their
 * order, with what the hand counts where a card is more than a number. */
export function handText(faces, hand) {
  const shown = faces.map(cardName).join(" ");
  return faces.every((f) => /^\d+$/.test(f)) ? shown : `${shown} (counting ${hand.join(" ")})`;
}

/** A card on the table: its face (red for hearts and diamonds), the
 * `notes` below it (whose card it is), and what it counts where that is
 * not its face. */
export function cardView(face, counts, notes = []) {
  const card = el("span", undefined, /[♥♦]/.test(face) ? "card red" : "card");
  card.append(el("span", face, "face"));
  for (const note of notes) card.append(el("span", note, "counts"));
  if (counts !== undefined && String(counts) !== face.replace(/[♠♥♣♦]/, "")) {
    card.append(el("span", `counts ${counts}`, "counts"));
  }
  return card;
}

/** What a valid claim made: the claim as typed, and its value where it
 * does not state it (`6*4/8 = 3`). */
export const made = (claim, value) => (claim.includes("=") ? claim : `${claim} = ${value}`);

/** The referee's verdict (the object of `check`) as a line: valid with
 * what the claim made, `more` after it, or invalid with the fault in the
 * server's words. */
export function verdictLine(verdict, more = "") {
  if (verdict.valid) {
    return el("p", `Valid: ${made(verdict.claim, verdict.value_text)}, a prime.${more ? ` ${more}` : ""}`, "good");
  }
  return el("p", `Invalid: ${verdict.fault}`, "bad");
}

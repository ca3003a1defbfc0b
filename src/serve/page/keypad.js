// A keypad for calls: one key per card on the table (used once, then
// greyed out; a face card's key says what it counts), the operators, the
// powers and functions where the house rules allow them, Delete and Call.
// The claim being built shows in the call field as a person writes it;
// the field still takes a hardware keyboard. The keypad counts its own
// keys and reads no claim: the server's referee rules on what is called.

import { el } from "/common.js";

/** Keys' texts as a person writes them: spaces round the operators, none
 * inside brackets or after a function's sign; cards side by side joined. */
function written(texts) {
  let out = "";
  let prev = null;
  for (const t of texts) {
    const tight =
      prev === null ||
      prev === "(" ||
      prev.endsWith("(") ||
      prev === "√" ||
      t === ")" ||
      t === "!" ||
      (/^\d/.test(t) && /\d$/.test(prev));
    out += (tight ? "" : " ") + t;
    prev = t;
  }
  return out;
}

/** The keys the house rules give beyond + − × ÷ ( ): [label, text, name]. */
function extraKeys(rules) {
  const keys = [];
  if (rules?.powers) keys.push(["^", "^", "^"], ["√", "√", "square root"]);
  const functions = rules?.functions ?? [];
  if (functions.includes("tri")) keys.push(["T(", "T(", "triangular number"]);
  if (functions.includes("fact")) keys.push(["!", "!", "factorial"]);
  if (functions.includes("sqrt") && !rules?.powers) keys.push(["√", "√", "square root"]);
  return keys;
}

/**
 * Builds the keypad into `box` for the cards `faces` (as shown) counting
 * `values`, under `rules` (the room's or the drill's, as the server wrote
 * them). `field` is the call's text field; `call` the Call button, enabled
 * once every card key has been tapped once and the brackets balance (or
 * when a claim has been typed by hand).
 */
export function keypad(box, field, call, faces, values, rules) {
  const pressed = [];
  let typed = false;
  const cardKeys = faces.map((face, i) => {
    const key = el("button", undefined, "key card-key");
    key.type = "button";
    const counts = String(values[i]);
    // Named by its content, "Q♥, counting 12": what it shows, and the
    // words a screen reader adds.
    key.append(el("span", face === "JK" ? "Joker" : face, "key-face"));
    if (counts !== face.replace(/[♠♥♣♦]/, "")) {
      key.append(el("span", ", counting ", "visually-hidden"), el("span", counts, "key-counts"));
    } else {
      key.append(el("span", `, counting ${counts}`, "visually-hidden"));
    }
    key.dataset.counts = counts;
    if (/[♥♦]/.test(face)) key.classList.add("red");
    key.addEventListener("click", () => press({ text: counts, card: i }));
    return key;
  });
  const opKey = (label, text, name) => {
    const key = el("button", label, "key");
    key.type = "button";
    key.setAttribute("aria-label", name);
    key.addEventListener("click", () => press({ text }));
    return key;
  };
  const ops = [
    ["+", "+", "+"],
    ["−", "−", "−"],
    ["×", "×", "×"],
    ["÷", "÷", "÷"],
    ["(", "(", "("],
    [")", ")", ")"],
    ...extraKeys(rules),
  ].map(([label, text, name]) => opKey(label, text, name));
  const back = el("button", "⌫", "key");
  back.type = "button";
  back.setAttribute("aria-label", "Delete");
  back.addEventListener("click", () => {
    if (typed) {
      field.value = field.value.slice(0, -1);
      typed = field.value !== "";
    } else {
      pressed.pop();
    }
    update();
  });
  const cardsRow = el("div", undefined, "keys cards-keys");
  cardsRow.append(...cardKeys);
  const opsRow = el("div", undefined, "keys");
  opsRow.append(...ops, back);
  box.replaceChildren(cardsRow, opsRow);

  function press(key) {
    if (typed) {
      // Typed by hand: the keys add to what is typed.
      field.value += key.text;
    } else {
      pressed.push(key);
    }
    update();
  }

  function update() {
    if (!typed) field.value = written(pressed.map((k) => k.text));
    const used = new Set(pressed.filter((k) => k.card !== undefined).map((k) => k.card));
    const last = pressed[pressed.length - 1];
    const afterCard = last?.card !== undefined;
    cardKeys.forEach((key, i) => {
      key.disabled = !typed && (used.has(i) || (afterCard && !rules?.juxtapose));
    });
    let depth = 0;
    let balanced = true;
    for (const k of pressed) {
      depth += (k.text.match(/\(/g) || []).length - (k.text.match(/\)/g) || []).length;
      if (depth < 0) balanced = false;
    }
    call.disabled = typed ? field.value.trim() === "" : !(used.size === faces.length && balanced && depth === 0);
  }

  field.oninput = () => {
    typed = field.value !== "";
    pressed.length = 0;
    update();
  };
  field.value = "";
  update();
  return {
    clear() {
      pressed.length = 0;
      typed = false;
      field.value = "";
      update();
    },
  };
}

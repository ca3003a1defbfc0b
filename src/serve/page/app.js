// The page asks the server's JSON API (docs/api.md) and shows its answers;
// every rule and every word of a verdict comes from the server.

const handForm = document.getElementById("hand-form");
const claimForm = document.getElementById("claim-form");
const answer = document.getElementById("answer");
const verdict = document.getElementById("verdict");

/** The query parameters of the chosen cards and house rules. */
function params() {
  const data = new FormData(handForm);
  const p = new URLSearchParams();
  p.set("cards", String(data.get("cards") || "").trim());
  p.set("faces", String(data.get("faces")));
  for (const rule of ["powers", "juxtapose", "high-primes"]) {
    if (data.get(rule)) p.set(rule, "1");
  }
  if (data.get("tri")) p.set("functions", "tri");
  localStorage.setItem("prime-time-rules", p.toString());
  return p;
}

/** The chosen rules, remembered on this device. */
function restore() {
  const saved = new URLSearchParams(localStorage.getItem("prime-time-rules") || "");
  if (saved.has("cards")) handForm.cards.value = saved.get("cards");
  if (saved.has("faces")) handForm.faces.value = saved.get("faces");
  for (const rule of ["powers", "juxtapose", "high-primes"]) {
    handForm.elements[rule].checked = saved.get(rule) === "1";
  }
  handForm.elements.tri.checked = saved.get("functions") === "tri";
}

async function ask(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `the server answered ${response.status}`);
  return body;
}

function line(text, cls) {
  const p = document.createElement("p");
  p.textContent = text;
  if (cls) p.className = cls;
  return p;
}

async function showPrimes(event) {
  event?.preventDefault();
  answer.replaceChildren(line("Solving…", "note"));
  try {
    const q = await ask(`/api/v1/query?${params()}`);
    const items = q.primes.map((p) => {
      const li = document.createElement("li");
      const value = document.createElement("span");
      value.className = "prime";
      value.textContent = p.value_text;
      li.append(value, document.createTextNode(`= ${p.witness}`));
      return li;
    });
    const list = document.createElement("ul");
    list.className = "primes";
    list.append(...items);
    answer.replaceChildren(
      line(
        q.primes.length === 0
          ? `The hand ${q.hand.join(" ")} makes no prime under these rules.`
          : `The hand ${q.hand.join(" ")} makes ${q.primes.length} prime${q.primes.length === 1 ? "" : "s"}; the highest is ${q.highest_prime_text}.`,
      ),
      list,
    );
  } catch (err) {
    answer.replaceChildren(line(err.message, "bad"));
  }
}

async function rule(event) {
  event.preventDefault();
  const p = params();
  p.set("claim", claimForm.claim.value);
  verdict.replaceChildren(line("Ruling…", "note"));
  try {
    const v = await ask(`/api/v1/check?${p}`);
    verdict.replaceChildren(
      v.valid
        ? line(`Valid: ${v.claim} = ${v.value_text}, a prime.`, "good")
        : line(`Invalid: ${v.fault}`, "bad"),
    );
  } catch (err) {
    verdict.replaceChildren(line(err.message, "bad"));
  }
}

restore();
handForm.addEventListener("submit", showPrimes);
showPrimes();
claimForm.addEventListener("submit", rule);

// The replay viewer: loads a hand's steps for one perspective from the server and shows them.
// Every text from the record (names, cards, events) goes in with textContent, never as markup.
// The perspective is the server's business: switching it refetches, nothing is filtered here.

const root = document.getElementById("replay");
const dataBase = root.dataset.api;
const hand = Number(root.dataset.hand);
const otherHand = root.dataset.otherHand ? Number(root.dataset.otherHand) : null;
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const PLAY_INTERVAL_MS = 700;

const view = {
  seat: root.dataset.seat,
  step: Number(root.dataset.step) || 0,
  here: null, // the ReplayResponse of this hand
  there: null, // the other table's (duplicate side by side)
  timer: null,
};

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cardNode(text, extra) {
  const node = el("span", "card" + (extra ? " " + extra : ""), text.slice(0, -1) + SUITS[text.slice(-1)]);
  node.dataset.card = text;
  node.dataset.suit = text.slice(-1);
  node.dataset.rank = text.slice(0, -1); // tens are highlighted by the stylesheet wherever they are
  return node;
}

// The record names cards and suits by letter (a rank and S, H, D or C): shown here with suit symbols.
const CARD_CODE = /\b(10|[2-9TJQKA])([SHDC])\b/g;
const SUIT_WORD = /\b(trumps(?: are|:)) ([SHDC])\b/g;

function pretty(text) {
  return text.replace(CARD_CODE, (_, rank, suit) => rank + SUITS[suit])
    .replace(SUIT_WORD, (_, words, suit) => `${words} ${SUITS[suit]}`);
}

function backNode(extra) {
  return el("span", "card back" + (extra ? " " + extra : ""), "🂠");
}

function backs(count) {
  // Face-down discards this perspective may not see: counted, never named.
  return Array.from({ length: count }, () => backNode("small face-down-discard"));
}

function fill(node, children) {
  node.replaceChildren(...children);
}

function dataUrl(number, seat) {
  // data-api: the server's URL of this match's hands (a ladder match's or a local one's).
  return `${dataBase}${number}/replay?seat=${encodeURIComponent(seat)}`;
}

async function fetchReplay(number, seat) {
  const response = await fetch(dataUrl(number, seat), { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(typeof body.detail === "string" ? body.detail : `HTTP ${response.status}`);
  return body;
}

function otherSeat(seat) {
  if (seat === "all" || seat === "none") return seat;
  return String((Number(seat) + view.here.pair.seat_shift) % 4);
}

async function load() {
  $("status").textContent = "loading…";
  root.removeAttribute("data-loaded");
  // Nothing of the previous perspective stays on the page while (or if) the new one loads.
  stopPlaying();
  view.here = view.there = null;
  for (const node of root.querySelectorAll(".hand, .trick, .pile, .captured, .trump, .events, .auction")) fill(node, []);
  try {
    view.here = await fetchReplay(hand, view.seat);
    view.there = otherHand !== null && view.here.pair ? await fetchReplay(otherHand, otherSeat(view.seat)) : null;
  } catch (error) {
    $("status").textContent = `The replay cannot be shown: ${error.message}`;
    return;
  }
  $("status").textContent = "";
  const count = stepCount();
  $("slider").max = String(count - 1);
  $("steps").textContent = String(count - 1);
  seatAtBottom("", view.seat);
  if (view.there) seatAtBottom("-b", otherSeat(view.seat));
  showPair();
  show(Math.min(view.step, count - 1));
  root.dataset.seat = view.seat;
  root.dataset.game = view.here.replay.game;
  root.dataset.loaded = "1";
}

const POSITIONS = ["bottom", "right", "top", "left"];

function seatAtBottom(suffix, seat) {
  // The perspective's seat is drawn at the bottom, the others round the table in playing order.
  const bottom = seat === "all" || seat === "none" ? 0 : Number(seat);
  const table = $("table" + suffix);
  table.dataset.bottom = String(bottom);
  for (const node of table.querySelectorAll(".seat[data-seat]")) {
    node.dataset.pos = POSITIONS[(Number(node.dataset.seat) - bottom + 4) % 4];
  }
}

function stepCount() {
  const here = view.here.replay.steps.length;
  return view.there ? Math.max(here, view.there.replay.steps.length) : here;
}

function show(step) {
  const count = stepCount();
  view.step = Math.max(0, Math.min(step, count - 1));
  $("slider").value = String(view.step);
  $("step").textContent = String(view.step);
  $("step").dataset.step = String(view.step);
  drawTable("", view.here, view.step);
  if (view.there) drawTable("-b", view.there, view.step);
  const url = new URL(window.location.href);
  url.searchParams.set("hand", String(hand));
  url.searchParams.set("step", String(view.step));
  url.searchParams.set("seat", view.seat);
  window.history.replaceState(null, "", url);
  for (const link of $("perspective").querySelectorAll("a")) {
    const target = new URL(link.href);
    target.searchParams.set("step", String(view.step));
    link.href = target.toString();
  }
}

function drawTable(suffix, data, index) {
  const steps = data.replay.steps;
  const step = steps[Math.min(index, steps.length - 1)];
  const table = $("table" + suffix);
  for (const seatData of step.seats) {
    const seat = table.querySelector(`[data-seat="${seatData.seat}"]`);
    const handNode = seat.querySelector(".hand");
    handNode.dataset.size = String(seatData.size);
    if (seatData.cards === null) {
      fill(handNode, Array.from({ length: seatData.size }, backNode));
    } else {
      fill(handNode, seatData.cards.map((card) => cardNode(card)));
    }
    if (seatData.to_come) handNode.append(el("span", "to-come", `+${seatData.to_come} to come`));
    toggle(seat, "dealer", step.dealer === seatData.seat);
    toggle(seat, "toMove", step.to_move === seatData.seat);
    const marks = [];
    if (step.dealer === seatData.seat) marks.push("dealer");
    if (step.to_move === seatData.seat) marks.push("to move");
    if (step.streak_holder === seatData.seat) marks.push("streak");
    seat.querySelector(".marks").textContent = marks.length ? ` (${marks.join(", ")})` : "";
  }
  const trick = $("trick" + suffix);
  fill(trick, step.trick.map((play) => {
    const winner = play.seat === step.trick_winner ? "winner" : "";
    const node = play.card === null ? backNode("face-down-discard")
      : cardNode(play.card, play.face_down ? `${winner} face-down-discard` : winner);
    node.dataset.seat = String(play.seat);
    if (play.face_down) node.dataset.faceDown = "true";
    const item = el("span", "play");
    item.append(node, el("small", "", `seat ${play.seat}`));
    return item;
  }));
  toggle(trick, "complete", step.trick_complete);
  trick.dataset.winner = step.trick_winner === null ? "" : String(step.trick_winner);

  const bidding = step.bidding;
  table.querySelector(".pile-box").hidden = Boolean(bidding);
  for (const node of table.querySelectorAll(".tens-line")) node.hidden = Boolean(bidding);
  for (const node of table.querySelectorAll(".points-line")) node.hidden = !bidding;
  $("auction-box" + suffix).hidden = !bidding;
  const ranks = $("rank-order" + suffix);
  ranks.hidden = !data.replay.rank_order;
  if (data.replay.rank_order) ranks.textContent = `Ranks in every suit, high to low: ${data.replay.rank_order.join(" ")}`;
  if (bidding) drawAuction(suffix, bidding);

  const pile = $("pile" + suffix);
  pile.dataset.count = String(step.pile.length + step.pile_face_down);
  pile.dataset.faceDown = String(step.pile_face_down);
  pile.dataset.tricks = String(step.pile_tricks);
  const pileCards = [...step.pile.map((card) => cardNode(card, "small")), ...backs(step.pile_face_down)];
  fill(pile, pileCards.length ? pileCards : [el("span", "muted", "empty")]);
  const streak = $("streak" + suffix);
  streak.dataset.seat = step.streak_holder === null ? "" : String(step.streak_holder);
  if (data.replay.rules.capture === "direct") streak.textContent = "each trick goes to its winner";
  else streak.textContent = step.streak_holder === null ? "no streak" : `streak: seat ${step.streak_holder}`;

  for (const team of step.teams) {
    $(`tens${suffix}-${team.team}`).textContent = String(team.tens);
    $(`tricks${suffix}-${team.team}`).textContent = String(team.tricks_won);
    $(`points${suffix}-${team.team}`).textContent = team.points === null ? "" : String(team.points);
    fill($(`team${suffix}-${team.team}`).querySelector(".captured"),
      [...team.captured.map((card) => cardNode(card, "small")), ...backs(team.captured_face_down)]);
  }
  drawTrump($("trump" + suffix), step.trump, Boolean(bidding));
  if (!suffix) {
    drawTrumpNow(step.trump);
    drawTricks(data, index);
  }
  const dealer = $("dealer" + suffix);
  dealer.dataset.seat = String(step.dealer);
  dealer.textContent = `dealer: seat ${step.dealer}`;

  const action = $("action" + suffix);
  action.textContent = step.action ? `step ${step.index}: seat ${step.action.seat} ${pretty(step.action.text)}`
    : "the deal, before the first action";
  fill($("events" + suffix), step.events.map((event) => {
    const item = el("li", "event " + event.kind, pretty(event.text));
    item.dataset.kind = event.kind;
    return item;
  }));
  const sweep = $("sweep" + suffix);
  const taken = step.events.find((event) => event.kind === "sweep" || event.kind === "capture");
  sweep.hidden = !taken;
  toggle(table, "sweeping", Boolean(taken && taken.kind === "sweep"));
  if (taken) {
    sweep.dataset.team = String(taken.team);
    sweep.dataset.cards = String(taken.cards);
    sweep.textContent = pretty(taken.text);
  }
  const result = $("result" + suffix);
  result.hidden = !step.result && !(bidding && bidding.result);
  delete result.dataset.outcome;
  if (bidding && bidding.result) {
    const r = bidding.result;
    result.dataset.winner = r.winner === null ? "void" : String(r.winner);
    result.dataset.outcome = r.outcome;
    const team = "AB"[r.team];
    const points = `card points A ${r.points[0]} – B ${r.points[1]}`;
    result.textContent = r.outcome === "void"
      ? `The hand stands invalid: nobody called for the trump in seven tricks (${points}).`
      : `Seat ${r.bidder} (Team ${team}) bid ${r.bid} and ${r.outcome === "made" ? "made" : "failed"} it: ` +
        `${points}; game points ${r.game_points > 0 ? "+" : ""}${r.game_points} for Team ${team}.`;
  } else if (step.result) {
    const r = step.result;
    result.dataset.winner = r.winner === null ? "draw" : String(r.winner);
    const who = r.winner === null ? "drawn" : `won by Team ${"AB"[r.winner]}`;
    result.textContent = `Hand ${who} (${r.outcome.replaceAll("_", " ")}): tens ${r.tens[0]}–${r.tens[1]}, ` +
      `tricks ${r.tricks_won[0]}–${r.tricks_won[1]}, value for Team A ${r.value > 0 ? "+" : ""}${r.value}`;
  }
}

function drawAuction(suffix, bidding) {
  fill($("auction" + suffix), bidding.calls.map((call) => {
    const item = el("li", call.bid === null ? "pass" : "bid", `seat ${call.seat}: ${call.text}`);
    item.dataset.seat = String(call.seat);
    item.dataset.call = call.text;
    return item;
  }));
  const contract = $("contract" + suffix);
  const c = bidding.contract;
  contract.dataset.bidder = c ? String(c.bidder) : "";
  contract.dataset.bid = c ? String(c.bid) : "";
  contract.textContent = c ? `contract: seat ${c.bidder} (Team ${"AB"[c.team]}) bid ${c.bid}` : "";
}

function drawTrump(node, trump, bidding) {
  let state = "none";
  const parts = [el("span", "label", "Trumps: ")];
  if (trump.face_down) {
    state = "face-down";
    parts.push(trump.card ? cardNode(trump.card, "face-down") : backNode());
    parts.push(el("span", "muted", ` face down (seat ${trump.holder})` + (trump.suit ? `: ${SUITS[trump.suit]}` : "")));
  } else if (trump.revealed) {
    state = "revealed";
    parts.push(cardNode(trump.card), el("span", "", ` revealed: ${SUITS[trump.suit]}`));
    if (bidding && trump.set_by !== null) {
      parts.push(el("span", "muted", ` (called by seat ${trump.set_by} in trick ${trump.set_in_trick})`));
    }
  } else if (trump.in_force) {
    state = "open";
    parts.push(el("span", "suit", SUITS[trump.in_force]));
    if (trump.set_card) parts.push(el("span", "muted", " set by "), cardNode(trump.set_card, "small"));
    if (trump.set_by !== null) parts.push(el("span", "muted", ` (seat ${trump.set_by})`));
  } else {
    parts.push(el("span", "muted", trump.method === "none" ? "none" : "not yet set"));
  }
  node.dataset.state = state;
  node.dataset.suit = trump.suit || "";
  fill(node, parts);
}

function drawTrumpNow(trump) {
  // The banner's trump, large: the suit in force, or as much of a face-down trump as this view knows.
  const node = $("trump-now");
  const suit = trump.in_force || (trump.revealed ? trump.suit : null);
  node.dataset.suit = suit || "";
  const parts = [el("span", "", "Trumps: ")];
  if (suit) {
    const symbol = el("span", "suit", SUITS[suit]);
    symbol.dataset.suit = suit;
    parts.push(symbol);
  } else if (trump.face_down) {
    parts.push(trump.card ? cardNode(trump.card, "face-down") : backNode(), el("span", "muted", " face down"));
  } else {
    parts.push(el("span", "muted", trump.method === "none" ? "none" : "not yet set"));
  }
  fill(node, parts);
}

function drawTricks(data, index) {
  // Every trick finished by this step: its cards, who won it (a link to the step it ended).
  const done = data.replay.tricks.filter((trick) => trick.last_step <= index);
  $("no-tricks").hidden = done.length > 0;
  fill($("tricks"), done.map((trick) => {
    const item = el("li");
    item.dataset.trick = String(trick.number);
    item.dataset.winner = String(trick.winner);
    const end = data.replay.steps[trick.last_step];
    const link = el("a", "", `seat ${trick.winner} (Team ${"AB"[trick.winner % 2]})`);
    link.href = "#";
    link.addEventListener("click", (event) => {
      event.preventDefault();
      show(trick.last_step);
    });
    const cards = end.trick.map((play) => (play.card === null ? backNode("small face-down-discard") : cardNode(play.card, "small")));
    item.append(...cards, el("span", "", " won by "), link);
    return item;
  }));
}

function toggle(node, key, on) {
  if (on) node.dataset[key] = "";
  else delete node.dataset[key];
}

function showPair() {
  const pair = view.here.pair;
  if (!view.there || !pair) return;
  const divergence = $("divergence");
  divergence.dataset.step = pair.first_divergence === null ? "" : String(pair.first_divergence);
  fill(divergence, pair.first_divergence === null ? [el("span", "", "Both tables played alike.")] : [
    el("span", "", `The tables first differ at step ${pair.first_divergence}. `),
    jumpButton(pair.first_divergence),
  ]);
  const margin = $("margin");
  margin.dataset.margin = String(pair.margin);
  const sign = (value) => (value > 0 ? "+" : "") + value;
  margin.textContent = `Partnership A (seats 0 and 2): ${sign(pair.values[0])} at hand ${pair.hand}, ` +
    `${sign(pair.values[1])} at hand ${pair.other_hand}: margin ${sign(pair.margin)} on this deal.`;
  const slider = $("slider");
  if (pair.first_divergence !== null) {
    slider.style.setProperty("--divergence", `${(100 * pair.first_divergence) / Math.max(1, stepCount() - 1)}%`);
    slider.classList.add("diverges");
  }
}

function jumpButton(step) {
  const button = el("button", "", "go there");
  button.type = "button";
  button.id = "to-divergence";
  button.addEventListener("click", () => show(step));
  return button;
}

function trickStep(direction) {
  // Next: the end of the next trick not yet complete; previous: the end of the trick before.
  const tricks = view.here.replay.tricks;
  if (direction > 0) {
    const next = tricks.find((trick) => trick.last_step > view.step);
    show(next ? next.last_step : stepCount() - 1);
  } else {
    const before = tricks.filter((trick) => trick.last_step < view.step);
    show(before.length ? before[before.length - 1].last_step : 0);
  }
}

function togglePlay() {
  if (view.timer !== null) {
    stopPlaying();
    return;
  }
  if (view.step >= stepCount() - 1) show(0);
  $("play").textContent = "⏸ pause";
  view.timer = window.setInterval(() => {
    if (view.step >= stepCount() - 1) stopPlaying();
    else show(view.step + 1);
  }, PLAY_INTERVAL_MS);
}

function stopPlaying() {
  if (view.timer !== null) window.clearInterval(view.timer);
  view.timer = null;
  $("play").textContent = "▶ play";
}

function wire() {
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(view.step - 1));
  $("next").addEventListener("click", () => show(view.step + 1));
  $("last").addEventListener("click", () => show(stepCount() - 1));
  $("prev-trick").addEventListener("click", () => trickStep(-1));
  $("next-trick").addEventListener("click", () => trickStep(1));
  $("play").addEventListener("click", togglePlay);
  $("slider").addEventListener("input", (event) => show(Number(event.target.value)));
  for (const link of $("perspective").querySelectorAll("a[data-perspective]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      view.seat = link.dataset.perspective;
      for (const other of $("perspective").querySelectorAll("a")) other.removeAttribute("aria-current");
      link.setAttribute("aria-current", "true");
      load();
    });
  }
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !view.here) return;
    const actions = {
      ArrowLeft: () => show(view.step - 1),
      ArrowRight: () => show(view.step + 1),
      ArrowUp: () => trickStep(-1),
      PageUp: () => trickStep(-1),
      ArrowDown: () => trickStep(1),
      PageDown: () => trickStep(1),
      Home: () => show(0),
      End: () => show(stepCount() - 1),
      " ": togglePlay,
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    // A focused button would also take the space as a click on key up: the key is ours.
    if (document.activeElement instanceof HTMLButtonElement) document.activeElement.blur();
    action();
  });
}

wire();
load();

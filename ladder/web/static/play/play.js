// The table page's keyboard and clock (no framework): ← → move among the moves you may make,
// 1–9 pick the n-th, Enter plays the one chosen (a focused button submits its form); the clock
// counts down from the seconds the server last said.
(function () {
  "use strict";
  var ticking = null;

  function moves() {
    return Array.prototype.slice.call(document.querySelectorAll("#hand button.legal, #choices button"));
  }

  function focusFirst() {
    var all = moves();
    if (all.length && !all.some(function (b) { return b === document.activeElement; })) { all[0].focus(); }
  }

  function startClock() {
    if (ticking) { clearInterval(ticking); ticking = null; }
    var clock = document.getElementById("clock");
    if (!clock || clock.dataset.secondsLeft === "") { return; }
    var end = Date.now() + parseFloat(clock.dataset.secondsLeft) * 1000;
    ticking = setInterval(function () {
      var left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      clock.textContent = left + " s";
      clock.classList.toggle("low", left <= 15);
    }, 250);
  }

  document.addEventListener("keydown", function (event) {
    if (event.target && (event.target.tagName === "SELECT" || event.target.tagName === "INPUT")) { return; }
    var all = moves();
    if (!all.length) { return; }
    var at = all.indexOf(document.activeElement);
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      var step = event.key === "ArrowRight" ? 1 : -1;
      all[(at + step + all.length) % all.length].focus();
      event.preventDefault();
    } else if (/^[1-9]$/.test(event.key)) {
      var pick = all[parseInt(event.key, 10) - 1];
      if (pick) { pick.focus(); event.preventDefault(); }
    } else if (event.key === "Enter" && at < 0) {
      all[0].focus();
      event.preventDefault();
    }
  });

  document.addEventListener("htmx:afterSwap", function () { startClock(); focusFirst(); });
  document.addEventListener("DOMContentLoaded", function () { startClock(); focusFirst(); });
})();

// Shows GAME.frames[k] and keeps the move list, the caption, the clocks and the address
// (#ply=k) in step with it.
(function () {
  "use strict";
  const frames = GAME.frames;
  const last = frames.length - 1;
  const position = document.getElementById("position");
  const links = Array.from(document.querySelectorAll("#moves a.mv"));
  const list = document.getElementById("moves");
  let current = -1;

  function show(k) {
    k = Math.max(0, Math.min(last, k));
    if (k === current) return k;
    current = k;
    const f = frames[k];
    position.innerHTML = f.svg;
    document.getElementById("caption").textContent = f.cap;
    document.getElementById("movedata").textContent = f.data;
    document.getElementById("fen").textContent = f.fen;
    document.getElementById("plyinfo").textContent = k + " / " + last;
    f.clocks.forEach(function (c, i) {
      const cell = document.getElementById("clock-" + i);
      if (cell) cell.textContent = c;
    });
    links.forEach(function (a) {
      const on = Number(a.dataset.ply) === k;
      a.classList.toggle("current", on);
      // Only the move list scrolls to the move, never the page.
      if (on) {
        const top = a.offsetTop - list.offsetTop;
        if (top < list.scrollTop || top + a.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = top - list.clientHeight / 2;
        }
      }
    });
    document.getElementById("first").disabled = document.getElementById("prev").disabled = k === 0;
    document.getElementById("next").disabled = document.getElementById("last").disabled = k === last;
    return k;
  }

  // The address follows the board, so that any position can be linked to. It is set once the
  // stepping pauses: browsers ignore a burst of address changes (a held arrow key).
  let pending = 0;
  function go(k) {
    show(k);
    clearTimeout(pending);
    pending = setTimeout(function () {
      if (location.hash !== "#ply=" + current) history.replaceState(null, "", "#ply=" + current);
    }, 150);
  }

  function fromAddress() {
    const m = /ply=(\d+)/.exec(location.hash);
    show(m ? Number(m[1]) : GAME.start < 0 ? last : GAME.start);
  }

  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(current - 1); });
  document.getElementById("next").addEventListener("click", function () { go(current + 1); });
  document.getElementById("last").addEventListener("click", function () { go(last); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: current - 1, ArrowRight: current + 1, ArrowUp: 0, Home: 0, ArrowDown: last, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  window.addEventListener("hashchange", fromAddress);
  fromAddress();
})();

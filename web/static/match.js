// Plays the match's asciicast in the page with asciinema-player (static/player, its licence
// beside it); without JavaScript the page links the cast instead.
(function () {
  "use strict";
  var el = document.getElementById("player");
  if (!el || !window.AsciinemaPlayer) return;
  window.AsciinemaPlayer.create(el.getAttribute("data-cast"), el, { cols: 80, rows: 24, fit: "width", idleTimeLimit: 2 });
})();

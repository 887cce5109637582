// The live parts of a page: its section with data-stream takes the server's events (each the
// section's new HTML, drawn and escaped by the server) and replaces its content; running clocks
// tick down between events, from the server's time (data-now, and the "now" events), whatever
// the browser's clock says. Without JavaScript the page is the same, as of when it was loaded.
(function () {
  "use strict";
  var section = document.querySelector("[data-stream]");
  var offset = 0; // the server's time minus the browser's
  if (section && section.getAttribute("data-now")) {
    offset = Number(section.getAttribute("data-now")) - Date.now();
  }
  function tick() {
    var clocks = document.querySelectorAll(".clock.running[data-ends]");
    for (var i = 0; i < clocks.length; i++) {
      var left = Number(clocks[i].getAttribute("data-ends")) - (Date.now() + offset);
      left = Math.max(0, Math.ceil(left / 1000));
      var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (clocks[i].textContent !== text) clocks[i].textContent = text;
    }
  }
  setInterval(tick, 250);
  if (!section || !window.EventSource) return;
  var events = new EventSource(section.getAttribute("data-stream"));
  events.onmessage = function (e) {
    section.innerHTML = e.data;
    tick();
  };
  events.addEventListener("now", function (e) { offset = Number(e.data) - Date.now(); tick(); });
  events.addEventListener("end", function () { events.close(); });
})();

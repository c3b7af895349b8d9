/* Starts a chapter's deck (_ext/slides.py): reveal.js with its math plugin on
   the site's own MathJax, and the speaker notes ("s"). Once the formulas are
   typeset, a slide whose content would not fit the frame gets a smaller font,
   down to MIN of the deck's size; <html data-slides-ready> then tells a test
   (or a printing script) that the deck is laid out. */
(function () {
  "use strict";
  var config = window.SLIDES_CONFIG;
  var MIN = 0.55;

  function tooBig(section) {
    return section.scrollHeight > config.height || section.scrollWidth > config.width;
  }

  function fit(section) {
    // Measured while shown: reveal keeps far slides display:none and hidden.
    var display = section.style.display, hidden = section.hasAttribute("hidden");
    section.style.display = "block";
    section.removeAttribute("hidden");
    var scale = 1;
    section.style.fontSize = "";
    while (tooBig(section) && scale > MIN + 1e-9) {
      scale = Math.max(MIN, scale - 0.05);
      section.style.fontSize = Math.round(scale * 100) + "%";
    }
    section.style.display = display;
    if (hidden) section.setAttribute("hidden", "");
  }

  config.plugins = [RevealMath.MathJax3, RevealNotes];
  config.mathjax3.startup = {
    ready: function () {
      MathJax.startup.defaultReady();
      MathJax.startup.promise.then(function () {
        document.querySelectorAll(".reveal .slides > section").forEach(fit);
        Reveal.layout();
        document.documentElement.setAttribute("data-slides-ready", "");
      });
    }
  };
  Reveal.initialize(config);
})();

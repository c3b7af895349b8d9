// The site's own script, on every page (added by _ext/site_assets.py, before the page's scripts).
(function () {
  "use strict";
  // Sphinx writes the relative path from this page to the site's root here.
  const root = document.documentElement.dataset.content_root || "";

  // 0. pydata-sphinx-theme reads the colour mode from localStorage or from the
  //    theme option default_mode, which sphinx-book-theme does not pass on: on a
  //    reader's first visit the mode is "" and the theme logs "Got invalid
  //    theme mode". Start from "auto" (follow the system), as it then does.
  if (!document.documentElement.dataset.mode) {
    document.documentElement.dataset.mode = "auto";
  }

  // 1. require.js (loaded by myst-nb on pages with widget state) reads a global
  //    `require` object as its configuration. The ipywidgets HTML manager
  //    fetches its icon fonts relative to its AMD module names
  //    ("@jupyter-widgets/..."), so baseUrl must be the folder holding the
  //    vendored manager, or the fonts are requested next to the page (404).
  if (typeof window.require === "undefined") {
    window.require = { baseUrl: new URL(root + "_static/html-manager/", document.baseURI).href };
  }

  // 2. ipywidgets 8 still typesets widget labels with MathJax 2's
  //    MathJax.Hub.Queue(["Typeset", MathJax.Hub, element]), which throws under
  //    MathJax 3. Give MathJax 3 that entry point, forwarding to typesetPromise.
  //    The manager renders widgets on "load", after MathJax (deferred) has
  //    replaced its configuration object by itself, which happens before
  //    DOMContentLoaded.
  function queue(command) {
    const element = Array.isArray(command) ? command[2] : undefined;
    const mathjax = window.MathJax;
    mathjax.startup.promise
      .then(() => mathjax.typesetPromise(element ? [element] : undefined))
      .catch((error) => console.error("MathJax could not typeset a widget label:", error));
  }
  function installHub() {
    const mathjax = window.MathJax;
    if (mathjax && mathjax.version && mathjax.startup && !mathjax.Hub) {
      mathjax.Hub = { Queue: queue };
    }
  }
  installHub();
  document.addEventListener("DOMContentLoaded", installHub);

  // 3. The theme's header buttons carry an aria-label ("Search") that does not
  //    contain their visible text ("Search Ctrl+K"), which fails WCAG 2.5.3
  //    (label in name). Where a button shows text, let that text be its name.
  function nameButtonsByTheirText() {
    for (const element of document.querySelectorAll("button[aria-label], a[aria-label]")) {
      const visible = (element.innerText || "").replace(/\s+/g, " ").trim();
      const label = element.getAttribute("aria-label") || "";
      if (visible && !label.toLowerCase().includes(visible.toLowerCase())) {
        element.removeAttribute("aria-label");
      }
    }
  }
  document.addEventListener("DOMContentLoaded", nameButtonsByTheirText);

  // 4. Formulas are out of the Tab order (_config.yml), but a display formula
  //    wider than the column scrolls sideways, and a keyboard user must reach
  //    it to scroll it: those few (and only those) become Tab stops.
  function focusScrollableFormulas() {
    for (const formula of document.querySelectorAll('mjx-container[display="true"]')) {
      const scrolls = formula.scrollWidth > formula.clientWidth + 1;
      if (scrolls && !formula.hasAttribute("tabindex")) {
        formula.setAttribute("tabindex", "0");
        formula.dataset.scrollFocus = "1";
      } else if (!scrolls && formula.dataset.scrollFocus) {
        formula.removeAttribute("tabindex");
        delete formula.dataset.scrollFocus;
      }
    }
    // An inline formula wider than its line (a phone) would widen the page:
    // it becomes a box of its own that scrolls (site.css), and a Tab stop.
    // All widths are read first, then the classes set: one layout, not one per formula.
    const inline = Array.from(document.querySelectorAll('.bd-content mjx-container:not([display="true"])'));
    const wide = inline.map((formula) => {
      const line = formula.parentElement && formula.parentElement.closest("p, li, dd, td, div");
      const width = formula.classList.contains("scroll-wide")
        ? formula.scrollWidth : formula.getBoundingClientRect().width;
      return Boolean(line) && width > line.clientWidth + 1;
    });
    inline.forEach((formula, i) => {
      formula.classList.toggle("scroll-wide", wide[i]);
      if (wide[i] && !formula.hasAttribute("tabindex")) {
        formula.setAttribute("tabindex", "0");
        formula.dataset.scrollFocus = "1";
      } else if (!wide[i] && formula.dataset.scrollFocus) {
        formula.removeAttribute("tabindex");
        delete formula.dataset.scrollFocus;
      }
    });
    // The edge covers of a scrolling formula take its ground's colour (site.css).
    for (const formula of document.querySelectorAll("mjx-container[data-scroll-focus]")) {
      const ground = groundOf(formula);
      if (ground) formula.style.setProperty("--mlx-ground", ground);
      else formula.style.removeProperty("--mlx-ground");
    }
  }
  // The opaque colour seen behind an element: the translucent grounds of its
  // ancestors (a theorem box's tint) composited over the first opaque one.
  function groundOf(element) {
    const layers = [];
    for (let e = element.parentElement; e; e = e.parentElement) {
      const parts = (getComputedStyle(e).backgroundColor.match(/[\d.]+/g) || []).map(Number);
      if (parts.length < 3) continue;
      const alpha = parts.length > 3 ? parts[3] : 1;
      if (alpha === 0) continue;
      layers.push([parts[0], parts[1], parts[2], alpha]);
      if (alpha === 1) break;
    }
    if (!layers.length || layers[layers.length - 1][3] !== 1) return "";
    let [r, g, b] = layers.pop();
    while (layers.length) {
      const [r1, g1, b1, a] = layers.pop();
      r = r1 * a + r * (1 - a); g = g1 * a + g * (1 - a); b = b1 * a + b * (1 - a);
    }
    return `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;
  }
  window.addEventListener("load", () => {
    const mathjax = window.MathJax;
    if (mathjax && mathjax.startup && mathjax.startup.promise) {
      mathjax.startup.promise.then(focusScrollableFormulas);
      window.addEventListener("resize", focusScrollableFormulas);
      // A switch of light/dark mode changes the grounds.
      new MutationObserver(() => focusScrollableFormulas())
        .observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme"]});
    }
  });
})();

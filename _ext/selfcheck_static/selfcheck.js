// Self-check questions: clicking an option (or Enter/Space on its text) reveals its feedback.
// The button is the option's text, not the whole option: the feedback it reveals
// may hold links, and a link inside a button is unreachable for assistive tools.
document.addEventListener("DOMContentLoaded", () => {
  for (const option of document.querySelectorAll(".self-check-option")) {
    const text = option.querySelector(".self-check-text") || option;
    text.setAttribute("role", "button");
    text.setAttribute("tabindex", "0");
    text.setAttribute("aria-expanded", "false");
    // The verdict and feedback that appear are announced by screen readers.
    option.setAttribute("aria-live", "polite");
    const reveal = () => {
      option.classList.add("self-check-revealed");
      text.setAttribute("aria-expanded", "true");
    };
    option.addEventListener("click", reveal);
    text.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        reveal();
      }
    });
  }
});

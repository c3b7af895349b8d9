// Self-check questions: clicking an option (or Enter/Space on it) reveals its feedback.
document.addEventListener("DOMContentLoaded", () => {
  for (const option of document.querySelectorAll(".self-check-option")) {
    option.setAttribute("role", "button");
    option.setAttribute("tabindex", "0");
    option.setAttribute("aria-expanded", "false");
    // The verdict and feedback that appear are announced by screen readers.
    option.setAttribute("aria-live", "polite");
    const reveal = () => {
      option.classList.add("self-check-revealed");
      option.setAttribute("aria-expanded", "true");
    };
    option.addEventListener("click", reveal);
    option.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        reveal();
      }
    });
  }
});

"""The clicker's keys while presenting: one script that presses Reveal, Previous and Next, puts the
focus on what a Reveal showed, and opens the long page at the slide's section when presenting stops."""

# A presentation clicker sends ArrowRight / PageDown / Space (next) and ArrowLeft / PageUp (back): a
# forward key presses Reveal while a prediction is on screen, else Next; a back key presses Previous
# (each found by its key's class), except where the key is the focused control's own: typing a
# prediction, choosing in a list, Space on a button. Enter in a prediction's box presses its Reveal on
# keyup, after Streamlit's own handler has taken the guess on the key's earlier events.
# Reveal removes its own button, and the focus would fall to the page's body: once the run it starts
# has ended, the focus goes to what took the prediction's place, its verdict (or the first thing
# revealed), so the clicker's next key, a keyboard or a screen reader lands on the answer. Turning
# presenting off scrolls the long page to the heading of the section that was on the slide, again for
# a second while the charts drawn above it move it. Bound once per page load.
KEYS = """
<script>
(() => {
  if (window.presenterKeys) return;
  window.presenterKeys = true;
  const app = () => document.querySelector("[data-testid=stApp]");
  const idle = () => app()?.dataset.testScriptState === "notRunning"
    && !document.querySelector("[data-testid=stSkeleton], [data-stale=true]");
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element
      ? event.target.closest('[class*="st-key-reveal_"] button') : null;
    if (!button) return;
    const key = [...button.closest('[class*="st-key-reveal_"]').classList]
      .find((c) => c.startsWith("st-key-reveal_"));
    const main = document.querySelector("[data-testid=stMain]");
    const path = [];  // child indexes from the page down to the prediction's row
    let row = button.closest("[data-testid=stHorizontalBlock]") || button;
    while (row.parentElement && !row.parentElement.matches("[data-testid=stVerticalBlock]")) {
      row = row.parentElement;
    }
    for (let node = row; node && node !== main; node = node.parentElement) {
      path.unshift([...node.parentElement.children].indexOf(node));
    }
    const slide = () => document.querySelector("[data-testid=stProgress]")?.textContent;
    const shown = slide(), started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > 60000) return clearInterval(timer);
      if (document.querySelector("." + CSS.escape(key)) || app().dataset.testScriptState !== "notRunning") {
        return;
      }
      clearInterval(timer);
      if (slide() !== shown) return;  // moved on meanwhile: the slot is another slide's
      const slot = path.reduce((node, k) => node && node.children[k], main);
      if (!slot) return;
      const target = slot.querySelector("[role=alert], [role=status]") || slot;  // a success is a status
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus();
    }, 100);
  });
  document.addEventListener("click", (event) => {  // leaving presenter mode: open at the slide's section
    const toggle = event.target instanceof Element ? event.target.closest(".st-key-present") : null;
    if (!toggle || !document.querySelector("[data-testid=stProgress]")) return;
    const text = document.querySelector("[data-testid=stMain] h3")?.textContent.trim();
    if (!text) return;  // a section without a heading is the page's top
    const started = Date.now();
    let scrolled = 0;
    const timer = setInterval(() => {  // the heading may be drawn a moment after the run has ended
      if (Date.now() - started > 15000) return clearInterval(timer);
      if (document.querySelector("[data-testid=stProgress]") || !idle()) return;
      const target = [...document.querySelectorAll("[data-testid=stMain] h3")]
        .find((h) => h.textContent.trim() === text);
      if (!target) return;
      target.scrollIntoView({block: "start"});
      if (++scrolled >= 10) clearInterval(timer);
    }, 100);
  }, true);  // capturing: the switch's own handler stops the click there
  const FORWARD = ["ArrowRight", "PageDown", " "], BACK = ["ArrowLeft", "PageUp"];
  const OWN = "input, textarea, select, [contenteditable]:not([contenteditable=false]), " +
    "[role=combobox], [role=listbox], [role=slider], [role=radiogroup], [role=tablist], [role=menu]";
  const PRESSABLE = "button, a, summary, label, [role=button], [role=switch], [role=checkbox]";
  const BOX = '[class*="st-key-predict_"] input';
  let entered = null;  // the prediction box Enter went down in
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      const target = event.target instanceof Element ? event.target : null;
      entered = target && !event.isComposing ? target.closest(BOX) : null;
      return;
    }
    const forward = FORWARD.includes(event.key);
    if (!forward && !BACK.includes(event.key)) return;
    if (event.repeat || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey
        || event.shiftKey) return;
    const focus = event.target instanceof Element ? event.target : null;
    if (focus && (focus.closest(OWN) || (event.key === " " && focus.closest(PRESSABLE)))) return;
    const reveal = forward && document.querySelector('[class*="st-key-reveal_"] button');
    const button = reveal
      || document.querySelector(`[class*="st-key-${forward ? "next" : "prev"}_"] button`);
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  });
  document.addEventListener("keyup", (event) => {
    if (event.key !== "Enter" || !entered || event.target !== entered) return;
    const box = [...entered.closest('[class*="st-key-predict_"]').classList]
      .find((c) => c.startsWith("st-key-predict_"));
    entered = null;
    const reveal = "." + CSS.escape(box.replace("st-key-predict_", "st-key-reveal_")) + " button";
    document.querySelector(reveal)?.click();
  });
})();
</script>
"""

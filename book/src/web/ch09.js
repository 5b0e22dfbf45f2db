// Chapter 9's widget, computed by the trained reverser in WebAssembly (`web/src/ch09.rs`): the
// reader types digits, the model answers with greedy decoding, and its cross-attention for that
// answer goes to the chapter's explorer (`explorer/explorer.js`) as "typed here".
import { h } from "./ui.js";

const LAYERS = 2, HEADS = 4;

export async function mount(el, wasm, timed) {
  await wasm.weights("ch09_load", "reverser.safetensors");
  const typed = h("input", { type: "text", value: "3 1 4 1 5 9 2 6", size: "28",
    "aria-label": "digits to reverse", spellcheck: "false", inputmode: "numeric" });
  const answer = h("p", { class: "widget-stats", "aria-live": "polite" });
  el.append(h("div", { class: "widget-row" }, h("label", {}, "digits ", typed)), answer);
  typed.addEventListener("input", () => timed(update));

  function update() {
    let out;
    try {
      out = wasm.call("ch09_reverse", Array.from(typed.value, (c) => c.codePointAt(0)));
    } catch (err) {
      answer.replaceChildren(h("span", { class: "widget-error" }, err.message));
      return;
    }
    const m = out[0], input = Array.from(out.subarray(1, 1 + m));
    const n = out[1 + m], said = Array.from(out.subarray(2 + m, 2 + m + n));
    const flat = out.subarray(2 + m + n), rows = n + 1;
    const maps = Array.from({ length: LAYERS }, (_, l) => Array.from({ length: HEADS }, (_, k) =>
      Array.from({ length: rows }, (_, r) =>
        Array.from(flat.subarray(((l * HEADS + k) * rows + r) * m, ((l * HEADS + k) * rows + r + 1) * m)))));
    const correct = n === m && said.every((d, i) => d === input[m - 1 - i]);
    answer.replaceChildren("the model answers ",
      h("strong", { "data-value": JSON.stringify(said) }, said.join(" ") || "(nothing)"),
      correct ? " \u2713 reversed" : " \u2717 not the reverse (" + input.slice().reverse().join(" ") + ")",
      "; its cross-attention is in the explorer above");
    const explorer = document.getElementById("reversal-explorer");
    if (explorer) {
      // greedy writes at most one token more than the input: EOS if it stopped
      const example = { input, answer: said, correct, stopped: n <= m, maps };
      explorer.dispatchEvent(new CustomEvent("explorer-example", { detail: example }));
    }
  }
  timed(update);
}

// Chapter 2's widget, computed by chapter 2's layer in WebAssembly (`web/src/ch02.rs`): the
// "bank loan" example with its embeddings and the three projection matrices editable.
import { h, matrix } from "./ui.js";

const WORDS = ["bank", "loan"];
const NAMES = ["X (embeddings)", "W_Q", "W_K", "W_V"];

// An f32 as typed: 0.9, not 0.8999999761581421.
const shortest = (x) => String(Number(x.toPrecision(7)));

export function mount(el, wasm, timed) {
  const start = wasm.call("ch02_chapter", null);
  const inputs = [];
  const editors = NAMES.map((name, m) => {
    const rows = m === 0 ? WORDS : ["in 0", "in 1"];
    const table = h("table", { class: "widget-matrix widget-inputs" }, h("caption", {}, name),
      h("tr", {}, h("th", {}), h("th", {}, m === 0 ? "x[0]" : "out 0"), h("th", {}, m === 0 ? "x[1]" : "out 1")));
    rows.forEach((label, r) => {
      const row = h("tr", {}, h("th", {}, label));
      for (let c = 0; c < 2; c++) {
        const k = m * 4 + r * 2 + c;
        const input = h("input", { type: "number", step: "0.1", value: shortest(start[k]),
          "aria-label": `${name}, row ${r}, column ${c}` });
        input.addEventListener("input", () => timed(update));
        inputs.push(input);
        row.append(h("td", {}, input));
      }
      table.append(row);
    });
    return table;
  });
  const reset = h("button", { type: "button" }, "the chapter's matrices");
  reset.addEventListener("click", () => {
    inputs.forEach((input, k) => (input.value = shortest(start[k])));
    timed(update);
  });
  const error = h("p", { class: "widget-error" });
  const summary = h("p", { class: "widget-stats" });
  const out = h("div", { class: "widget-row" });
  el.append(h("div", { class: "widget-row" }, ...editors), reset, error, summary, out);

  function update() {
    let r;
    try {
      r = wasm.call("ch02_bank_loan", inputs.map((input) => Number(input.value)));
      error.textContent = "";
    } catch (e) {
      error.textContent = e.message;
      return;
    }
    const part = (k) => r.subarray(k * 4, (k + 1) * 4);
    const dims = ["0", "1"];
    out.replaceChildren(
      matrix("Q = X W_Q", part(0), WORDS, dims),
      matrix("K = X W_K", part(1), WORDS, dims),
      matrix("V = X W_V", part(2), WORDS, dims),
      matrix("scores Q Kᵀ / √2", part(3), WORDS, WORDS),
      matrix("weights", part(4), WORDS, WORDS, true),
      matrix("outputs = weights V", part(5), WORDS, dims),
      matrix("without projections: X Xᵀ", part(6), WORDS, WORDS));
    const w = part(4);
    summary.textContent = `"bank" attends ${(w[0] * 100).toFixed(1)} % to itself and ` +
      `${(w[1] * 100).toFixed(1)} % to "loan"`;
  }
  timed(update);
}

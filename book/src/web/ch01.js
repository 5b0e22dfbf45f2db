// Chapter 1's widgets, computed by chapter 1's code in WebAssembly (`web/src/ch01.rs`):
// * `ch01-sentence`: edit the four words' vectors and watch scores, weights and context vectors;
// * `ch01-scaling`: pick d_k and compare one query's softmax weights with and without √d_k.
import { h, matrix, bars } from "./ui.js";

export function mount(el, wasm, timed) {
  if (el.dataset.widget === "ch01-sentence") sentence(el, wasm, timed);
  else if (el.dataset.widget === "ch01-scaling") scaling(el, wasm, timed);
}

// An f32 as typed: 0.43, not the double nearest to the f32 nearest to 0.43 (0.4300000071525574).
const shortest = (x) => String(Number(x.toPrecision(7)));

function sentence(el, wasm, timed) {
  const words = el.dataset.words.split(" ");
  const start = wasm.call("ch01_embeddings", null);
  const width = start.length / words.length;
  const inputs = [];
  const editor = h("table", { class: "widget-matrix widget-inputs" },
    h("caption", {}, "token vectors (edit them)"),
    h("tr", {}, h("th", {}), ...Array.from({ length: width }, (_, j) => h("th", {}, `x[${j}]`))));
  words.forEach((word, i) => {
    const row = h("tr", {}, h("th", {}, word));
    for (let j = 0; j < width; j++) {
      const input = h("input", { type: "number", step: "0.05", value: shortest(start[i * width + j]),
        "aria-label": `${word}, component ${j}` });
      input.addEventListener("input", () => timed(update));
      inputs.push(input);
      row.append(h("td", {}, input));
    }
    editor.append(row);
  });
  const reset = h("button", { type: "button" }, "reset");
  reset.addEventListener("click", () => {
    inputs.forEach((input, k) => (input.value = shortest(start[k])));
    timed(update);
  });
  const out = h("div", { class: "widget-row" });
  const error = h("p", { class: "widget-error" });
  el.append(h("div", { class: "widget-row" }, editor), reset, error, out);

  function update() {
    const n = words.length;
    const tokens = inputs.map((input) => Number(input.value));
    let result;
    try {
      result = wasm.call("ch01_sentence", tokens);
      error.textContent = "";
    } catch (e) {
      error.textContent = e.message;
      return;
    }
    const cols = Array.from({ length: width }, (_, j) => `z[${j}]`);
    out.replaceChildren(
      matrix("scores x·xᵀ", result.subarray(0, n * n), words, words),
      matrix("weights softmax(scores)", result.subarray(n * n, 2 * n * n), words, words, true),
      matrix("context weights·x", result.subarray(2 * n * n), words, cols));
  }
  timed(update);
}

function scaling(el, wasm, timed) {
  const widths = Array.from(wasm.call("ch01_scaling_widths", null));
  const slider = h("input", { type: "range", min: "0", max: String(widths.length - 1), step: "1",
    value: String(widths.indexOf(512)), "aria-label": "d_k" });
  const label = h("strong", {});
  const out = h("div", { class: "widget-row" });
  const stats = h("p", { class: "widget-stats" });
  el.append(h("label", {}, "d", h("sub", {}, "k"), " = ", label, " ", slider), out, stats);
  slider.addEventListener("input", () => timed(update));

  function update() {
    const d = widths[Number(slider.value)];
    label.textContent = String(d);
    const r = wasm.call("ch01_scaling", null, d);
    const keys = r.length / 2 - 3;
    const names = Array.from({ length: keys }, (_, j) => `k${j}`);
    out.replaceChildren(bars("query 0, unscaled q·k", r.subarray(0, keys), names),
      bars("query 0, scaled q·k / √d_k", r.subarray(keys, 2 * keys), names));
    const s = (o) => `score std ${r[o].toFixed(2)}, mean largest weight ${r[o + 1].toFixed(2)}, ` +
      `rows above 0.99: ${Math.round(r[o + 2] * 100)} %`;
    stats.replaceChildren(
      h("span", { "data-stats": "unscaled" }, "unscaled: " + s(2 * keys)), h("br", {}),
      h("span", { "data-stats": "scaled" }, "scaled: " + s(2 * keys + 3)));
  }
  timed(update);
}

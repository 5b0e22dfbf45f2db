// Chapter 6's widget, computed by chapter 6's builders in WebAssembly (`web/src/ch06.rs`): a
// sequence of six positions with padding on one side, the causal mask on or off, and the book's
// -1e9 fill or an additive -inf mask. It shows the combined mask (1 = may attend) and the
// attention weights of seeded queries and keys under it.
import { h, matrix } from "./ui.js";

export function mount(el, wasm, timed) {
  const real = h("input", { type: "range", min: "0", max: "6", value: "4", "aria-label": "real tokens" });
  const left = h("input", { type: "checkbox", "aria-label": "padding on the left" });
  const causal = h("input", { type: "checkbox", "aria-label": "causal mask" });
  causal.checked = true;
  const additive = h("input", { type: "checkbox", "aria-label": "additive -inf mask" });
  const realLabel = h("strong", {});
  const ids = h("p", { class: "widget-stats" });
  const out = h("div", { class: "widget-row" });
  const empty = h("p", { class: "widget-stats" });
  el.append(
    h("div", { class: "widget-row" },
      h("label", {}, "real tokens ", realLabel, " ", real),
      h("label", {}, left, " padding on the left"),
      h("label", {}, causal, " causal"),
      h("label", {}, additive, " additive −∞ instead of the −1e9 fill")),
    ids, out, empty);
  for (const input of [real, left, causal, additive]) input.addEventListener("input", () => timed(update));

  function update() {
    const settings = [Number(real.value), left.checked ? 1 : 0, causal.checked ? 1 : 0, additive.checked ? 1 : 0];
    realLabel.textContent = real.value;
    const r = wasm.call("ch06_mask_builder", settings);
    const n = 6;
    // the chapter's ids: 1, 2, ... for the real tokens, 0 (PAD) for the padding
    const tokens = Array.from(r.subarray(0, n), (id) => (id === 0 ? "PAD" : `t${id}`));
    ids.textContent = "sequence: " + tokens.join(" ");
    const labels = tokens.map((t, i) => `${i}:${t}`);
    const mask = r.subarray(n, n + n * n), weights = r.subarray(n + n * n);
    const maskTable = matrix("mask, 1 = may attend (rows: queries)", mask, labels, labels.map((_, i) => String(i)));
    maskTable.querySelectorAll("td").forEach((td) => (td.textContent = td.dataset.value));
    out.replaceChildren(maskTable,
      matrix("attention weights", weights, labels, labels.map((_, i) => String(i)), true));
    const rows = [];
    for (let q = 0; q < n; q++) if (mask.subarray(q * n, (q + 1) * n).every((m) => m === 0)) rows.push(q);
    empty.textContent = rows.length
      ? `queries with nothing to attend to: ${rows.join(", ")}: ` +
        (settings[3] ? "the additive −∞ mask makes their weights NaN" : "the −1e9 fill makes their weights uniform, 1/6 each")
      : "every query has at least one key to attend to";
  }
  timed(update);
}

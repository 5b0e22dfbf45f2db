// Chapter 10's widget, computed by the trained character model in WebAssembly
// (`web/src/ch10.rs`): it writes after the reader's prompt with the temperature, top-k and seed
// chosen, once with its KV cache and once recomputing everything, and reports both speeds.
import { h } from "./ui.js";

export async function mount(el, wasm, timed) {
  await wasm.weights("ch10_load", "char_model.safetensors");
  const prompt = h("input", { type: "text", value: "LAWYER, n.", size: "24", "aria-label": "prompt", spellcheck: "false" });
  const count = h("input", { type: "number", min: "1", max: "400", value: "200", "aria-label": "characters to write" });
  const temperature = h("input", { type: "range", min: "0.1", max: "2", step: "0.1", value: "0.8", "aria-label": "temperature" });
  const tLabel = h("strong", {});
  const topK = h("input", { type: "number", min: "0", max: "96", value: "20", "aria-label": "top-k (0: all)" });
  const seed = h("input", { type: "number", min: "0", value: "7", "aria-label": "seed" });
  const write = h("button", { type: "button" }, "write");
  const text = h("pre", { class: "widget-text", "aria-live": "polite" });
  const stats = h("p", { class: "widget-stats" });
  for (const n of [count, topK, seed]) n.style.width = "4.5em";
  el.append(
    h("div", { class: "widget-row" },
      h("label", {}, "prompt ", prompt),
      h("label", {}, "characters ", count),
      h("label", {}, "temperature ", tLabel, " ", temperature),
      h("label", {}, "top-k ", topK),
      h("label", {}, "seed ", seed),
      write),
    text, stats);

  const settings = (cached) => [Number(count.value), Number(temperature.value), Number(topK.value),
    Number(seed.value), cached ? 1 : 0, ...Array.from(prompt.value, (c) => c.codePointAt(0))];
  const decode = (points) => String.fromCodePoint(...points);
  const rate = (n, ms) => `${Math.round((n * 1000) / ms)} characters/s`;

  function update() {
    tLabel.textContent = Number(temperature.value).toFixed(1);
    let points;
    const start = performance.now();
    try {
      points = wasm.call("ch10_write", settings(true));
    } catch (err) {
      text.replaceChildren(h("span", { class: "widget-error" }, err.message));
      stats.textContent = "";
      return;
    }
    const cachedMs = performance.now() - start;
    const written = decode(points);
    text.replaceChildren(h("strong", {}, prompt.value), written);
    text.dataset.value = written;
    stats.dataset.cachedMs = cachedMs.toFixed(1);
    delete stats.dataset.recomputeMs;
    stats.textContent = `with the KV cache: ${points.length} characters in ${cachedMs.toFixed(0)} ms, ` +
      `${rate(points.length, cachedMs)}; now without it…`;
    // without the cache, after the page has shown the text
    setTimeout(() => {
      const again = performance.now();
      const same = decode(wasm.call("ch10_write", settings(false))) === written;
      const recomputeMs = performance.now() - again;
      stats.dataset.recomputeMs = recomputeMs.toFixed(1);
      stats.dataset.same = String(same);
      stats.textContent = `with the KV cache: ${rate(points.length, cachedMs)}; ` +
        `recomputing everything: ${rate(points.length, recomputeMs)} ` +
        `(${(recomputeMs / cachedMs).toFixed(1)}× the time); ` +
        (same ? "the same text" : "DIFFERENT texts: a bug");
    }, 0);
  }
  temperature.addEventListener("input", () => (tLabel.textContent = Number(temperature.value).toFixed(1)));
  write.addEventListener("click", () => timed(update));
  timed(update);
}

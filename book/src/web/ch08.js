// Chapter 8's widget, computed by chapter 8's code in WebAssembly (`web/src/ch08.rs`): pick a
// pattern and a length; the page draws the scores the pattern keeps, counts them, and times the
// dense form (all n² scores, masked) against `sparse_head` (only the kept ones) on seeded data.
import { h } from "./ui.js";

const KINDS = ["full", "causal", "sliding window", "causal sliding window", "BigBird"];
const LENGTHS = [64, 128, 256, 512, 1024];

export function mount(el, wasm, timed) {
  const kind = h("select", { "aria-label": "pattern" },
    ...KINDS.map((k, i) => h("option", { value: String(i) }, k)));
  kind.value = "4";
  const n = h("select", { "aria-label": "n" }, ...LENGTHS.map((v) => h("option", { value: String(v) }, String(v))));
  n.value = "256";
  const number = (label, value, min, max) =>
    h("input", { type: "number", value: String(value), min: String(min), max: String(max), "aria-label": label });
  const w = number("window w", 8, 0, 1024);
  const block = h("select", { "aria-label": "block size" }, ...[8, 16, 32, 64].map((v) => h("option", { value: String(v) }, String(v))));
  block.value = "16";
  const windowBlocks = number("window blocks", 1, 0, 128);
  const global = number("global blocks", 1, 0, 128);
  const random = number("random blocks", 2, 0, 128);
  const seed = number("seed", 0, 0, 1000000);
  for (const x of [w, windowBlocks, global, random, seed]) x.style.width = "4.5em";
  const windowRow = h("div", { class: "widget-row" }, h("label", {}, "w ", w));
  const birdRow = h("div", { class: "widget-row" },
    h("label", {}, "block ", block), h("label", {}, "window blocks ", windowBlocks),
    h("label", {}, "global ", global), h("label", {}, "random ", random), h("label", {}, "seed ", seed));
  const canvas = h("canvas", { class: "widget-pattern", width: "256", height: "256",
    "aria-label": "the pattern: rows are queries, columns keys, dark = kept" });
  const counts = h("p", { class: "widget-stats" });
  const cost = h("p", { class: "widget-stats" });
  const error = h("p", { class: "widget-error" });
  const time = h("button", { type: "button" }, "time both kernels");
  el.append(
    h("div", { class: "widget-row" }, h("label", {}, "pattern ", kind), h("label", {}, "n ", n)),
    windowRow, birdRow, error,
    h("div", { class: "widget-row" }, canvas, h("div", { class: "widget-grow" }, counts, time, cost)));
  for (const x of [kind, n, w, block, windowBlocks, global, random, seed]) {
    x.addEventListener("input", () => timed(update));
  }
  time.addEventListener("click", measure);

  const settings = () => [kind.value, n.value, w.value, block.value, windowBlocks.value,
    global.value, random.value, seed.value].map(Number);

  function update() {
    windowRow.hidden = !(kind.value === "2" || kind.value === "3");
    birdRow.hidden = kind.value !== "4";
    cost.textContent = "";
    let mask;
    try {
      mask = wasm.call("ch08_mask", settings());
      error.textContent = "";
    } catch (e) {
      error.textContent = e.message;
      counts.textContent = "";
      return;
    }
    const size = Number(n.value);
    const { kept, fewest, most } = draw(canvas, mask, size);
    counts.dataset.kept = String(kept);
    counts.textContent = `keeps ${kept.toLocaleString("en")} of ${(size * size).toLocaleString("en")} scores ` +
      `(${((kept / (size * size)) * 100).toFixed(2)} %); a query sees ${fewest} to ${most} keys`;
  }

  // The two kernels on the same seeded data: their times here, and how far apart their outputs are.
  function measure() {
    let dense, sparse, denseMs, sparseMs;
    try {
      let t = performance.now();
      dense = wasm.call("ch08_attend", settings(), 0);
      denseMs = performance.now() - t;
      t = performance.now();
      sparse = wasm.call("ch08_attend", settings(), 1);
      sparseMs = performance.now() - t;
    } catch (e) {
      error.textContent = e.message;
      return;
    }
    let diff = 0;
    for (let i = 0; i < dense.length; i++) diff = Math.max(diff, Math.abs(dense[i] - sparse[i]));
    cost.dataset.dense = JSON.stringify(Array.from(dense));
    cost.dataset.sparse = JSON.stringify(Array.from(sparse));
    cost.dataset.denseMs = denseMs.toFixed(1);
    cost.dataset.sparseMs = sparseMs.toFixed(1);
    cost.textContent = `on this device: the dense form ${denseMs.toFixed(1)} ms, sparse_head ` +
      `${sparseMs.toFixed(1)} ms (${(denseMs / sparseMs).toFixed(1)}×); outputs at most ${diff.toExponential(1)} apart`;
  }
  timed(update);
}

// Draws the mask, one pixel per score (blue = kept), and counts the kept scores per row.
function draw(canvas, mask, size) {
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(size, size);
  const pixels = new Uint32Array(image.data.buffer);
  // RGBA bytes read as one little-endian number: 0xAABBGGRR
  const [blue, white] = [0xffeb6325, 0xffffffff];
  let kept = 0, fewest = size, most = 0;
  for (let i = 0; i < size; i++) {
    let row = 0;
    for (let j = 0, k = i * size; j < size; j++, k++) {
      const on = mask[k] !== 0;
      pixels[k] = on ? blue : white;
      row += on;
    }
    kept += row;
    fewest = Math.min(fewest, row);
    most = Math.max(most, row);
  }
  ctx.putImageData(image, 0, 0);
  return { kept, fewest, most };
}

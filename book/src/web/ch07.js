// Chapter 7's widget, computed by the trained ViT in WebAssembly (`web/src/ch07.rs`): draw a
// digit on the 8×8 grid (mouse or finger) or start from a test image; the class probabilities
// and each head's [CLS] attention over the 16 patches follow every stroke.
import { h, bars } from "./ui.js";

const SIDE = 8, PIXELS = 64, CLASSES = 10, HEADS = 4, GRID = 4; // 16 patches of 2×2

export async function mount(el, wasm, timed) {
  await wasm.weights("ch07_load", "digits_vit.safetensors");
  const examples = wasm.call("ch07_examples", null);
  const pixels = new Float32Array(PIXELS);
  const canvas = h("canvas", { class: "widget-digit", width: "160", height: "160",
    "aria-label": "an 8×8 grid to draw a digit on" });
  const example = h("select", { "aria-label": "start from a test image" },
    h("option", { value: "" }, "a test image…"),
    ...Array.from({ length: CLASSES }, (_, d) => h("option", { value: String(d) }, `the first test ${d}`)));
  const clear = h("button", { type: "button" }, "clear");
  const verdict = h("p", { class: "widget-stats" });
  const probabilities = h("div", { class: "widget-row" });
  const heads = h("div", { class: "widget-row" });
  el.append(
    h("div", { class: "widget-row" },
      h("div", {}, canvas, h("div", { class: "widget-row" }, example, clear)),
      h("div", { class: "widget-grow" }, verdict, probabilities)),
    h("div", { class: "widget-caption" },
      "the last layer's [CLS] attention on the 16 patches (2×2 pixels each), one grid per head; darker = more"),
    heads);

  function show(values) {
    pixels.set(values);
    timed(update);
  }
  example.addEventListener("input", () => {
    if (example.value !== "") show(examples.subarray(Number(example.value) * PIXELS, (Number(example.value) + 1) * PIXELS));
  });
  clear.addEventListener("click", () => show(new Float32Array(PIXELS)));

  // Drawing: the cell under the pointer turns fully on, its four neighbours at least half on
  // (the data's strokes are about two pixels wide).
  let drawing = false;
  function stroke(event) {
    const r = canvas.getBoundingClientRect();
    const col = Math.floor(((event.clientX - r.left) / r.width) * SIDE);
    const row = Math.floor(((event.clientY - r.top) / r.height) * SIDE);
    if (row < 0 || row >= SIDE || col < 0 || col >= SIDE) return;
    const next = Float32Array.from(pixels);
    next[row * SIDE + col] = 1;
    for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
      const [rr, cc] = [row + dr, col + dc];
      if (rr >= 0 && rr < SIDE && cc >= 0 && cc < SIDE) next[rr * SIDE + cc] = Math.max(next[rr * SIDE + cc], 0.5);
    }
    if (next.some((v, i) => v !== pixels[i])) {
      example.value = "";
      show(next);
    }
  }
  canvas.addEventListener("pointerdown", (e) => {
    drawing = true;
    try {
      canvas.setPointerCapture(e.pointerId); // keep the stroke when the finger leaves the grid
    } catch (_) {
      // a pointer the browser does not track (a synthetic event): draw without capture
    }
    stroke(e);
  });
  canvas.addEventListener("pointermove", (e) => drawing && stroke(e));
  for (const end of ["pointerup", "pointercancel"]) canvas.addEventListener(end, () => (drawing = false));

  function update() {
    const out = wasm.call("ch07_classify", pixels);
    const p = out.subarray(0, CLASSES), attention = out.subarray(CLASSES);
    el.dataset.pixels = JSON.stringify(Array.from(pixels));
    drawDigit(canvas, pixels);
    const best = p.indexOf(Math.max(...p));
    verdict.replaceChildren("the ViT reads ", h("strong", { "data-value": String(best) }, String(best)),
      ` (${(p[best] * 100).toFixed(1)} %)`);
    probabilities.replaceChildren(bars("class probabilities", Array.from(p), [...Array(CLASSES).keys()].map(String)));
    heads.replaceChildren(...Array.from({ length: HEADS }, (_, k) =>
      patchGrid(`head ${k + 1}`, attention.subarray(k * GRID * GRID, (k + 1) * GRID * GRID))));
  }
  show(examples.subarray(3 * PIXELS, 4 * PIXELS)); // the first test 3, as in the chapter's figure
  example.value = "3";
}

function drawDigit(canvas, pixels) {
  const ctx = canvas.getContext("2d");
  const cell = canvas.width / SIDE;
  for (let i = 0; i < PIXELS; i++) {
    const v = Math.round(255 * (1 - pixels[i]));
    ctx.fillStyle = `rgb(${v}, ${v}, ${v})`;
    ctx.fillRect((i % SIDE) * cell, Math.floor(i / SIDE) * cell, cell, cell);
  }
  ctx.strokeStyle = "rgba(37, 99, 235, 0.5)"; // the patches' borders
  for (let k = 0; k <= GRID; k++) {
    const at = (k * canvas.width) / GRID;
    ctx.beginPath(); ctx.moveTo(at, 0); ctx.lineTo(at, canvas.height); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(0, at); ctx.lineTo(canvas.width, at); ctx.stroke();
  }
}

// One head's weights on the 4×4 patches, shaded, each cell holding its value.
function patchGrid(caption, weights) {
  const table = h("table", { class: "widget-patches" }, h("caption", {}, caption));
  for (let r = 0; r < GRID; r++) {
    const row = h("tr", {});
    for (let c = 0; c < GRID; c++) {
      const w = weights[r * GRID + c];
      const td = h("td", { "data-value": String(w), title: w.toFixed(3) });
      td.style.background = `rgba(37, 99, 235, ${Math.min(1, w * 2).toFixed(3)})`;
      row.append(td);
    }
    table.append(row);
  }
  return table;
}

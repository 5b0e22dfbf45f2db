// Chapter 4's widget, computed by chapter 4's code in WebAssembly (`web/src/ch04.rs`): the
// sinusoidal table for a width d_model, one position's encoding, and how similar it is to every
// other position's (the dot products PE(p)·PE(q)).
import { h } from "./ui.js";

export function mount(el, wasm, timed) {
  const widths = Array.from(wasm.call("ch04_widths", null));
  const width = h("select", { "aria-label": "d_model" },
    ...widths.map((d) => h("option", { value: String(d) }, String(d))));
  width.value = "64";
  const position = h("input", { type: "range", min: "0", max: "49", value: "10", "aria-label": "position" });
  const dimension = h("input", { type: "range", min: "0", max: "63", value: "0", "aria-label": "dimension" });
  const [pLabel, iLabel, value] = [h("strong", {}), h("strong", {}), h("span", { class: "widget-value" })];
  const table = h("canvas", { class: "widget-canvas", width: "640", height: "250" });
  const dots = h("canvas", { class: "widget-canvas", width: "640", height: "160" });
  const row = h("div", { class: "widget-stats" });
  const caption = h("div", { class: "widget-caption" });
  el.append(
    h("div", { class: "widget-row" },
      h("label", {}, "d_model ", width),
      h("label", {}, "position ", pLabel, " ", position),
      h("label", {}, "dimension ", iLabel, " ", dimension)),
    caption,
    table, value,
    h("div", { class: "widget-caption" }, "PE(p)·PE(q) for every position q (the marked one is p)"),
    dots, row);
  for (const input of [width, position, dimension]) input.addEventListener("input", () => timed(update));

  function update() {
    const d = Number(width.value);
    dimension.max = String(d - 1);
    if (Number(dimension.value) > d - 1) dimension.value = String(d - 1);
    const [p, i] = [Number(position.value), Number(dimension.value)];
    pLabel.textContent = String(p);
    iLabel.textContent = String(i);
    const out = wasm.call("ch04_encoding", null, d, p);
    // the table's positions (web/src/ch04.rs): n rows of d, then n dot products
    const n = out.length / (d + 1), pe = out.subarray(0, n * d), sims = out.subarray(n * d);
    position.max = String(n - 1);
    caption.textContent = `PE(position, dimension), ${n} positions (rows) × d_model (columns); −1 blue, +1 red`;
    drawTable(table, pe, n, d, p, i);
    drawDots(dots, sims, p, d / 2);
    value.textContent = `PE(${p}, ${i}) = ${pe[p * d + i].toFixed(4)}`;
    value.dataset.value = String(pe[p * d + i]);
    row.dataset.values = JSON.stringify(Array.from(pe.subarray(p * d, (p + 1) * d)));
    row.dataset.dots = JSON.stringify(Array.from(sims));
    row.textContent = `PE(${p})·PE(${p}) = ${sims[p].toFixed(3)} (d_model / 2); ` +
      `PE(${p})·PE(${(p + 1) % n}) = ${sims[(p + 1) % n].toFixed(3)}`;
  }
  timed(update);
}

// The table as coloured cells, the chosen row and column outlined.
function drawTable(canvas, pe, n, d, p, i) {
  const ctx = canvas.getContext("2d");
  const [cw, ch] = [canvas.width / d, canvas.height / n];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < d; c++) {
      const v = pe[r * d + c];
      const [red, blue] = v > 0 ? [255, Math.round(255 * (1 - v))] : [Math.round(255 * (1 + v)), 255];
      ctx.fillStyle = `rgb(${red}, ${Math.min(red, blue)}, ${blue})`;
      ctx.fillRect(c * cw, r * ch, Math.ceil(cw), Math.ceil(ch));
    }
  }
  ctx.strokeStyle = "#111";
  ctx.lineWidth = 2;
  ctx.strokeRect(0, p * ch, canvas.width, ch);
  ctx.strokeRect(i * cw, 0, cw, canvas.height);
}

// The similarities as a line over q, from −d/2 to d/2, the chosen position marked.
function drawDots(canvas, sims, p, half) {
  const ctx = canvas.getContext("2d");
  const [w, hgt] = [canvas.width, canvas.height];
  ctx.clearRect(0, 0, w, hgt);
  const y = (v) => hgt / 2 - (v / half) * (hgt / 2 - 4);
  const x = (q) => 4 + (q / (sims.length - 1)) * (w - 8);
  ctx.strokeStyle = "rgba(127, 127, 127, 0.5)";
  ctx.beginPath();
  ctx.moveTo(0, y(0));
  ctx.lineTo(w, y(0));
  ctx.stroke();
  ctx.strokeStyle = "#2563eb";
  ctx.lineWidth = 2;
  ctx.beginPath();
  sims.forEach((v, q) => (q ? ctx.lineTo(x(q), y(v)) : ctx.moveTo(x(q), y(v))));
  ctx.stroke();
  ctx.fillStyle = "#b91c1c";
  ctx.beginPath();
  ctx.arc(x(p), y(sims[p]), 4, 0, 2 * Math.PI);
  ctx.fill();
}

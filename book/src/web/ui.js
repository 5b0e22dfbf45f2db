// Small DOM helpers the chapters' widgets share: elements, matrices of numbers, bars.

// `h("td", {class: "x"}, "text", child)`: an element with attributes and children.
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

// A number as the page prints it (3 decimals), its full value in `data-value` for the checks.
export function cell(value, decimals = 3) {
  return h("td", { "data-value": String(value) }, value.toFixed(decimals));
}

// A `rows × cols` matrix from row-major `values`, with row and column labels; `shade` colours
// each cell by its value in [0, 1] (attention weights).
export function matrix(caption, values, rowLabels, colLabels, shade = false) {
  const table = h("table", { class: "widget-matrix" }, h("caption", {}, caption));
  table.append(h("tr", {}, h("th", {}), ...colLabels.map((c) => h("th", {}, c))));
  rowLabels.forEach((label, i) => {
    const row = h("tr", {}, h("th", {}, label));
    colLabels.forEach((_, j) => {
      const v = values[i * colLabels.length + j];
      const td = cell(v);
      if (shade) td.style.background = `rgba(37, 99, 235, ${Math.max(0, Math.min(1, v)) * 0.6})`;
      row.append(td);
    });
    table.append(row);
  });
  return table;
}

// Horizontal bars for values in [0, 1], labelled, with the value printed.
export function bars(caption, values, labels) {
  const box = h("div", { class: "widget-bars" }, h("div", { class: "widget-caption" }, caption));
  values.forEach((v, i) => {
    const bar = h("span", { class: "widget-bar" });
    bar.style.width = `${Math.max(0, Math.min(1, v)) * 100}%`;
    const value = h("span", { class: "widget-bar-value", "data-value": String(v) }, v.toFixed(3));
    box.append(h("div", { class: "widget-bar-row" }, h("span", {}, labels[i]),
      h("span", { class: "widget-bar-track" }, bar), value));
  });
  return box;
}

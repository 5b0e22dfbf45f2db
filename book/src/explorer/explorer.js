// The attention explorer of chapter 9: the trained reversal model's cross-attention, for the
// sequence, decoder layer and head the reader picks. Plain JavaScript, no libraries, nothing
// fetched: the data (`reversal.json`, written by `cargo xtask explorer`) is inlined into the page
// as `<script type="application/json" id="reversal-data">` when the book is built, so the page
// also works opened from disk.
(function () {
  'use strict';

  const root = document.getElementById('reversal-explorer');
  const source = document.getElementById('reversal-data');
  if (!root || !source) {
    return;
  }
  let data;
  try {
    data = JSON.parse(source.textContent);
  } catch (e) {
    console.error('attention explorer: cannot read its data', e);
    return;
  }

  const pick = (cls) => root.querySelector('.' + cls);
  const sequenceSelect = pick('explorer-sequence');
  const layerSelect = pick('explorer-layer');
  const headSelect = pick('explorer-head');
  const numbers = pick('explorer-numbers');
  const output = pick('explorer-output');
  const table = pick('explorer-map');
  const summary = pick('explorer-summary');
  const MEAN = 'mean';

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      node.setAttribute(k, v);
    }
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function option(value, label) {
    return el('option', { value: String(value) }, label);
  }

  // The sequences, grouped: lengths seen in training, then longer ones.
  const longest = data.trained_lengths[1];
  const groups = [
    el('optgroup', { label: 'held out, lengths ' + data.trained_lengths[0] + '-' + longest + ' (trained)' }),
    el('optgroup', { label: 'longer than any in training' }),
  ];
  data.examples.forEach((ex, i) => {
    const mark = ex.correct ? '\u2713' : '\u2717 wrong';
    const label = 'length ' + ex.input.length + ': ' + ex.input.join(' ') + '  ' + mark;
    groups[ex.input.length > longest ? 1 : 0].appendChild(option(i, label));
  });
  groups.filter((g) => g.children.length > 0).forEach((g) => sequenceSelect.appendChild(g));

  for (let l = 0; l < data.layers; l++) {
    layerSelect.appendChild(option(l, 'layer ' + (l + 1) + (l === data.layers - 1 ? ' (last)' : '')));
  }
  for (let h = 0; h < data.heads; h++) {
    headSelect.appendChild(option(h, 'head ' + (h + 1)));
  }
  headSelect.appendChild(option(MEAN, 'mean of heads'));
  layerSelect.value = String(data.layers - 1);
  headSelect.value = MEAN;

  // The map shown: one head's, or the mean of the layer's heads.
  function currentMap(ex) {
    const heads = ex.maps[Number(layerSelect.value)];
    if (headSelect.value !== MEAN) {
      return heads[Number(headSelect.value)];
    }
    return heads[0].map((row, r) =>
      row.map((_, c) => heads.reduce((sum, h) => sum + h[r][c], 0) / heads.length));
  }

  // A weight in a cell: two decimals without the leading zero (".42"), "0" and "1" at the ends.
  function short(w) {
    const s = w.toFixed(2);
    return s === '0.00' ? '0' : s === '1.00' ? '1' : s.slice(1);
  }

  function digits(parent, values, expected) {
    values.forEach((d, i) => {
      const ok = expected === undefined || expected[i] === d;
      parent.appendChild(el('span', { class: 'explorer-digit' + (ok ? '' : ' wrong') }, String(d)));
    });
  }

  function drawOutput(ex, expected) {
    output.replaceChildren();
    const line = (label) => {
      const p = el('div', { class: 'explorer-line' });
      p.appendChild(el('span', { class: 'explorer-label' }, label));
      output.appendChild(p);
      return p;
    };
    digits(line('input'), ex.input);
    const out = line('output');
    digits(out, ex.answer, expected);
    if (ex.answer.length < expected.length) {
      const missing = expected.length - ex.answer.length;
      out.appendChild(el('span', { class: 'explorer-note wrong' },
        missing === 1 ? 'one digit short' : missing + ' digits short'));
    }
    if (ex.correct) {
      out.appendChild(el('span', { class: 'explorer-verdict ok' }, '\u2713 reversed'));
    } else {
      out.appendChild(el('span', { class: 'explorer-verdict wrong' }, '\u2717 wrong'));
      digits(line('expected'), expected);
    }
  }

  function draw() {
    const ex = data.examples[Number(sequenceSelect.value)];
    const n = ex.input.length;
    const expected = ex.input.slice().reverse();
    drawOutput(ex, expected);

    const map = currentMap(ex);
    const which = headSelect.value === MEAN
      ? 'layer ' + (Number(layerSelect.value) + 1) + ', mean of heads'
      : 'layer ' + (Number(layerSelect.value) + 1) + ', head ' + (Number(headSelect.value) + 1);
    const rowNames = ex.answer.map(String).concat([ex.stopped ? 'EOS' : '\u2026']);
    table.replaceChildren();
    table.classList.toggle('explorer-numbers-shown', numbers.checked);
    table.appendChild(el('caption', {}, 'Cross-attention, ' + which));
    const head = el('tr');
    head.appendChild(el('th', { class: 'explorer-corner', scope: 'col' }, 'wrote \u2193 read \u2192'));
    ex.input.forEach((d, c) => {
      head.appendChild(el('th', { scope: 'col', title: 'input position ' + (c + 1) }, String(d)));
    });
    table.appendChild(el('thead')).appendChild(head);
    const body = table.appendChild(el('tbody'));
    let hits = 0;
    map.forEach((row, r) => {
      const tr = body.appendChild(el('tr'));
      const isDigit = r < ex.answer.length;
      const right = isDigit ? expected[r] === ex.answer[r] : ex.stopped && r === n;
      const rowTitle = isDigit
        ? 'output ' + (r + 1) + ': wrote ' + ex.answer[r]
        : ex.stopped ? 'wrote EOS' : 'the step after its last digit (it never wrote EOS)';
      tr.appendChild(el('th', { scope: 'row', class: right ? '' : 'wrong', title: rowTitle }, rowNames[r]));
      const strongest = row.indexOf(Math.max(...row));
      // the input position holding the digit that belongs at output place r
      const mirror = r < n ? n - 1 - r : -1;
      if (isDigit && mirror >= 0 && strongest === mirror) {
        hits += 1;
      }
      row.forEach((w, c) => {
        const td = el('td', {
          title: rowTitle + ' \u2190 input ' + (c + 1) + ' (' + ex.input[c] + '): ' + w.toFixed(3),
          class: c === mirror ? 'mirror' : '',
        });
        td.dataset.value = String(w);
        td.style.backgroundColor = 'rgba(37, 99, 235, ' + Math.min(1, Math.max(0, w)).toFixed(3) + ')';
        if (w > 0.6) {
          td.classList.add('dark');
        }
        if (numbers.checked) {
          td.textContent = short(w);
        }
        tr.appendChild(td);
      });
    });
    const digitRows = Math.min(n, ex.answer.length);
    summary.textContent = 'In ' + which + ', the strongest weight of ' + hits + ' of the ' +
      digitRows + ' digit rows falls on the outlined position.';
  }

  [sequenceSelect, layerSelect, headSelect, numbers].forEach((s) => s.addEventListener('change', draw));

  // A sequence answered live in the page (chapter 9's widget, `web/ch09.js`): it joins the list
  // as "typed here", replacing the previous one, and is shown.
  const typed = el('optgroup', { label: 'typed here (computed in the page)' });
  root.addEventListener('explorer-example', (event) => {
    const ex = event.detail;
    data.examples = data.examples.filter((e) => !e.typed);
    data.examples.push(Object.assign({ typed: true }, ex));
    typed.replaceChildren(option(data.examples.length - 1,
      'yours: ' + ex.input.join(' ') + '  ' + (ex.correct ? '\u2713' : '\u2717 wrong')));
    if (!typed.parentNode) sequenceSelect.appendChild(typed);
    sequenceSelect.value = String(data.examples.length - 1);
    draw();
  });
  // start on a mid-length sequence: long enough to show the pattern, short enough to read
  sequenceSelect.value = String(Math.max(0, data.examples.findIndex((ex) => ex.input.length === 6)));
  draw();
  root.classList.add('explorer-ready');
})();

// The book's live widgets: each element with a `data-widget` attribute is filled by the module
// `web/<chapter>.js` (the part of the attribute before the first "-"), which computes with the
// chapters' own Rust code compiled to WebAssembly (`attention_web.wasm`, built by
// `cargo xtask wasm` from `web/`). Nothing loads from outside the book. Without JavaScript or
// WebAssembly the page keeps its static figures and the element's short note.
//
// Each widget records how long its first result took after the page started loading
// (`data-first-ms`: for chapters 7, 9 and 10, with their trained weights fetched and loaded) and
// its last update (`data-update-ms`); the browser check reads them.
(function () {
  "use strict";
  const root = typeof path_to_root === "string" ? path_to_root : "";
  let wasm = null;

  // The module, loaded once per page.
  function loadWasm() {
    if (!wasm) {
      const url = root + "web/attention_web.wasm";
      wasm = (WebAssembly.instantiateStreaming
        ? WebAssembly.instantiateStreaming(fetch(url), {})
        : fetch(url).then((r) => r.arrayBuffer()).then((b) => WebAssembly.instantiate(b, {}))
      ).then(({ instance }) => api(instance.exports));
    }
    return wasm;
  }

  // The seam of `web/src/abi.rs`: fill the input buffer, call, read the output or the error.
  function api(e) {
    const fail = () => {
      const bytes = new Uint8Array(e.memory.buffer, e.error(), e.error_len());
      throw new Error(new TextDecoder().decode(bytes));
    };
    const loaded = {};
    return {
      // A chapter's trained weights (`web/<file>`, published beside the module), fetched once
      // per page and handed to the module's `<loader>` function, which keeps the model.
      weights(loader, file) {
        if (!loaded[loader]) {
          loaded[loader] = fetch(root + "web/" + file)
            .then((r) => {
              if (!r.ok) throw new Error(file + ": " + r.status);
              return r.arrayBuffer();
            })
            .then((buffer) => {
              const at = e.bytes(buffer.byteLength);
              new Uint8Array(e.memory.buffer, at, buffer.byteLength).set(new Uint8Array(buffer));
              if (e[loader]() !== 0) fail();
            });
        }
        return loaded[loader];
      },
      call(name, input, ...args) {
        const values = input || [];
        const at = e.input(values.length);
        new Float32Array(e.memory.buffer, at, values.length).set(values);
        if (e[name](...args) !== 0) fail();
        return new Float32Array(e.memory.buffer, e.output(), e.output_len()).slice();
      },
    };
  }

  // Times a widget's update: the first one against the page's start, every one on its own.
  function timed(el, update) {
    const start = performance.now();
    update();
    const end = performance.now();
    if (!el.dataset.firstMs) el.dataset.firstMs = end.toFixed(1);
    el.dataset.updateMs = (end - start).toFixed(2);
  }

  function mountAll() {
    const els = document.querySelectorAll("[data-widget]");
    if (!els.length || typeof WebAssembly !== "object") return;
    for (const el of els) {
      const chapter = el.dataset.widget.split("-")[0];
      // a module path must be a URL: relative to the page, not a bare name
      const module = new URL(root + "web/" + chapter + ".js", document.baseURI).href;
      Promise.all([loadWasm(), import(module)])
        .then(([w, module]) => {
          el.textContent = "";
          // a widget with trained weights is live once they are in (its mount returns a promise)
          return Promise.resolve(module.mount(el, w, (update) => timed(el, update)));
        })
        .then(() => el.classList.add("widget-live"))
        .catch((err) => {
          el.dataset.error = String(err);
          console.warn("widget " + el.dataset.widget + ": " + err);
        });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", mountAll);
  } else {
    mountAll();
  }
})();

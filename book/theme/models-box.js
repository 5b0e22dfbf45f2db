// What the three model boxes share ("ask the book" on every page, chapter 11's chat, chapter 13's
// hearing): where the site's `web/` folder is, a way to build elements, the model's listing
// (`web/<folder>/files.json`: its name and files), the models' Web Worker with a model loaded in
// it, and the load button that says the model's size before it loads it. Loaded before
// `ask.js`, `chat.js` and `hear.js` (book.toml's `additional-js`), as `window.AttentionModels`.
(function () {
  "use strict";
  const root = typeof path_to_root === "string" ? path_to_root : "";
  const web = root + "web/";

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    node.append(...children);
    return node;
  }

  const megabytes = (bytes) => (bytes / 1e6).toFixed(1) + " MB";

  // The model's listing with its total size in bytes; rejects where the site has no such folder.
  function listing(folder) {
    return fetch(web + folder + "/files.json")
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((list) => ({ ...list, total: list.files.reduce((n, [, size]) => n + size, 0) }));
  }

  // A new worker with `model` loaded in it; `progress(text)` hears how far the files have come.
  // Resolves with the worker and the worker's `loaded` message (its time, and whether the files
  // came from the browser's cache).
  function load(model, progress) {
    return new Promise((resolve, reject) => {
      const worker = new Worker(web + "models-worker.js");
      worker.onmessage = ({ data }) => {
        if (data.type === "progress") {
          progress("Loading the model: " + megabytes(data.loaded) + " of " +
            megabytes(data.total));
        } else if (data.type === "loaded") {
          resolve({ worker, loaded: data });
        } else if (data.type === "error") {
          worker.terminate();
          reject(new Error(data.message));
        }
      };
      worker.postMessage({ type: "load", model });
    });
  }

  const loadedLine = (loaded) => "Loaded in " + (loaded.ms / 1000).toFixed(1) + " s" +
    (loaded.cached ? " from your browser's cache." : ".");

  // A box's load button: labelled with the model's size once its listing is found, or disabled
  // with `absent` where it is not; on a click, the model loaded into a worker, the box's
  // `data-load-ms` and `data-cached` set, and `ready(worker, list)` called. `say(state, text)`
  // writes the box's state and status line; `idle(list)` is the line said before loading.
  function offer(box, { folder, model, loadButton, say, idle, absent, ready }) {
    let list = null;
    listing(folder)
      .then((found) => {
        list = found;
        loadButton.textContent = "Load " + found.model + " (" + megabytes(found.total) + ")";
        say("idle", idle(found));
      })
      .catch(() => {
        loadButton.disabled = true;
        say("absent", absent);
      });
    loadButton.addEventListener("click", () => {
      loadButton.disabled = true;
      say("loading", "Loading the model ...");
      load(model, (text) => say("loading", text))
        .then(({ worker, loaded }) => {
          box.dataset.loadMs = loaded.ms.toFixed(0);
          box.dataset.cached = String(loaded.cached);
          loadButton.hidden = true;
          say("loaded", loadedLine(loaded));
          ready(worker, list);
        })
        .catch((err) => {
          loadButton.disabled = false;
          say("error", "The model did not load: " + err.message);
        });
    });
  }

  // `start()` once the page is parsed, in browsers with workers and WebAssembly.
  function whenReady(start) {
    if (typeof Worker !== "function" || typeof WebAssembly !== "object") return;
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", start);
    } else {
      start();
    }
  }

  // The box with id `id`, where this page has one, given to `mount` when the page is ready.
  const mountOn = (id, mount) => whenReady(() => {
    const box = document.getElementById(id);
    if (box) mount(box);
  });

  window.AttentionModels = { web, el, megabytes, listing, load, loadedLine, offer, whenReady,
    mountOn };
})();

// "Ask the book", on every page: beside mdBook's keyword search, a question in the reader's own
// words, answered by meaning. Chapter 12's all-MiniLM-L6-v2, compiled to WebAssembly with the
// rest of the book's code, embeds the question in a Web Worker (`web/models-worker.js`) and ranks
// the book's paragraphs by cosine similarity; the paragraphs were embedded when the book was
// built (`cargo xtask wasm` publishes them in `web/ask/` when the model is in the cache).
//
// The panel's `data-state` says where it is (absent, idle, loading, loaded, asking, answered,
// error); `data-hits` holds the last answer as [paragraph, cosine] pairs, `data-load-ms` and
// `data-ask-ms` its times, for the browser check.
(function () {
  "use strict";
  const { web, el, megabytes, listing, load: loadModel, loadedLine, whenReady } =
    window.AttentionModels;
  const root = typeof path_to_root === "string" ? path_to_root : "";
  let worker = null;
  let index = null; // book-index.json: the paragraphs, and the words that find each in its page
  let panel, input, askButton, loadButton, status, list;

  function say(state, text) {
    panel.dataset.state = state;
    status.textContent = text;
  }

  function build() {
    input = el("input", { type: "search", placeholder: "Ask the book, in your own words",
      "aria-label": "A question for the book" });
    askButton = el("button", { type: "button" }, "Ask");
    loadButton = el("button", { type: "button", hidden: "" }, "Load the model");
    status = el("p", { class: "ask-status" });
    list = el("ol", { class: "ask-hits" });
    panel = el("div", { id: "ask-panel", class: "ask", hidden: "" },
      el("div", { class: "ask-row" }, input, askButton, loadButton), status, list);
    const toggle = el("button", { id: "ask-toggle", class: "icon-button", type: "button",
      title: "Ask the book a question (by meaning)", "aria-label": "Ask the book" }, "Ask");
    const buttons = document.querySelector("#mdbook-menu-bar .left-buttons, #menu-bar .left-buttons");
    const search = document.getElementById("mdbook-search-wrapper") || document.getElementById("search-wrapper");
    if (!buttons || !search) return false;
    buttons.append(toggle);
    search.after(panel);
    toggle.addEventListener("click", () => {
      panel.hidden = !panel.hidden;
      if (!panel.hidden) {
        open();
        input.focus();
      }
    });
    askButton.addEventListener("click", ask);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") ask();
    });
    loadButton.addEventListener("click", load);
    return true;
  }

  // The first opening: is the model here, how big, and already in the browser's cache?
  let opened = null;
  function open() {
    if (opened) return opened;
    say("checking", "");
    opened = listing("ask")
      .then(async ({ model, total }) => {
        loadButton.textContent = "Load " + model + " (" + megabytes(total) + ")";
        loadButton.hidden = false;
        say("idle", "Questions are answered in this page by " + model + " (chapter 12), run " +
          "by the book's own code in WebAssembly: " + megabytes(total) + ", loaded once " +
          "and kept by your browser.");
        const cached = self.caches &&
          (await caches.open("attention-in-rust-models-v1")
            .then((c) => c.match(new URL(web + "ask/model.safetensors", document.baseURI).href))
            .catch(() => undefined));
        if (cached) load();
      })
      .catch(() => {
        say("absent", "Asking the book needs all-MiniLM-L6-v2 beside it, and this copy was " +
          "built without it: run `cargo xtask models`, then `cargo xtask serve`.");
        input.disabled = askButton.disabled = true;
      });
    return opened;
  }

  let loading = null;
  function load() {
    if (loading) return loading;
    loadButton.disabled = true;
    say("loading", "Loading the model ...");
    loading = Promise.all([
      loadModel("ask", (text) => say("loading", text)),
      fetch(web + "ask/book-index.json").then((r) => r.json()),
    ])
      .then(([{ worker: loadedWorker, loaded }, manifest]) => {
        worker = loadedWorker;
        index = manifest;
        panel.dataset.loadMs = loaded.ms.toFixed(0);
        panel.dataset.cached = String(loaded.cached);
        loadButton.hidden = true;
        say("loaded", loadedLine(loaded));
        worker.onmessage = answered;
      })
      .catch((err) => {
        loading = null;
        loadButton.disabled = false;
        say("error", "The model did not load: " + err.message);
      });
    return loading;
  }

  async function ask() {
    await open();
    if (panel.dataset.state === "absent") return;
    await load();
    if (!index) return;
    say("asking", "");
    worker.postMessage({ type: "ask", question: input.value });
  }

  function answered({ data }) {
    if (data.type === "error") {
      say("error", data.message);
      list.replaceChildren();
      return;
    }
    panel.dataset.hits = JSON.stringify(data.hits);
    panel.dataset.askMs = data.ms.toFixed(1);
    list.replaceChildren(...data.hits.map(([at, score]) => hit(index.paragraphs[at],
      index.find[at], score)));
    say("answered", "The " + data.hits.length + " paragraphs closest in meaning, in " +
      data.ms.toFixed(0) + " ms:");
  }

  // One paragraph: its chapter and section, linked to the words that find it in its page.
  function hit(p, find, score) {
    const page = root + p.page.replace(/\.md$/, ".html");
    const href = find ? page + "#:~:text=" + encodeURIComponent(find) : page;
    const words = p.text.split(/\s+/);
    const shown = words.length > 32 ? words.slice(0, 32).join(" ") + " ..." : p.text;
    return el("li", {},
      el("a", { href }, p.chapter === p.section ? p.chapter : p.chapter + " › " + p.section),
      " ", el("span", { class: "ask-score", "data-value": String(score) },
        "cosine " + score.toFixed(3)),
      el("p", {}, shown));
  }

  whenReady(build);
})();

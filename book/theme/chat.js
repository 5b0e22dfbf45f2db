// Chatting with SmolLM2-135M-Instruct in chapter 11's page: the element `#ch11-chat` becomes a
// chat box whose replies come from the chapter's decode path (the file's quantized blocks, the
// key/value cache) compiled to WebAssembly, in a Web Worker (`web/models-worker.js`), token by
// token as they are written. The model (98 MB) is loaded on request, after the page says its
// size, and kept by the browser for later visits.
//
// The element's `data-state` says where it is (absent, idle, loading, loaded, replying, replied,
// error); `data-ids` holds the last reply's token ids, `data-tokens-per-s` its speed, for the
// browser check.
(function () {
  "use strict";
  const { el, megabytes, offer, mountOn } = window.AttentionModels;

  function mount(box) {
    const status = el("p", { class: "chat-status" });
    const loadButton = el("button", { type: "button" }, "Load the model");
    const mode = el("select", { "aria-label": "How tokens are chosen" },
      el("option", { value: "greedy" }, "greedy"), el("option", { value: "sampled" }, "sampled"));
    const number = (label, value, step) => {
      const input = el("input", { type: "number", value: String(value), step: String(step),
        "aria-label": label });
      return [el("label", {}, label + " ", input), input];
    };
    const [tLabel, temperature] = number("temperature", 0.8, 0.1);
    const [kLabel, topK] = number("top-k", 40, 1);
    const [sLabel, seed] = number("seed", 1, 1);
    const [mLabel, max] = number("tokens", 128, 1);
    const message = el("input", { type: "text", value: "What is attention in a transformer?",
      "aria-label": "Your message" });
    const send = el("button", { type: "button", disabled: "" }, "Send");
    const reply = el("div", { class: "chat-reply" });
    const stats = el("p", { class: "chat-stats" });
    const sampling = [tLabel, kLabel, sLabel];
    const showSampling = () => sampling.forEach((l) => (l.hidden = mode.value !== "sampled"));
    showSampling();
    mode.addEventListener("change", showSampling);
    box.replaceChildren(status, loadButton,
      el("div", { class: "chat-options" }, mode, ...sampling, mLabel),
      el("div", { class: "chat-row" }, message, send), reply, stats);

    const say = (state, text) => {
      box.dataset.state = state;
      status.textContent = text;
    };
    let worker = null;

    offer(box, {
      folder: "chat",
      model: "chat",
      loadButton,
      say,
      idle: ({ total }) => "The replies are written in this page by the chapter's decode path, " +
        "in WebAssembly: " + megabytes(total) + " of model, loaded once and " +
        "kept by your browser.",
      absent: "Chatting here needs SmolLM2's file beside the book, and this copy was built " +
        "without it: run `cargo xtask models`, then `cargo xtask serve`.",
      ready: (loaded) => {
        worker = loaded;
        worker.onmessage = replying;
        send.disabled = false;
      },
    });

    let written = "";
    function replying({ data }) {
      if (data.type === "prompt") {
        box.dataset.promptMs = data.ms.toFixed(0);
        stats.textContent = "prompt: " + data.tokens + " tokens in " + data.ms.toFixed(0) + " ms";
      } else if (data.type === "token") {
        written += data.text;
        reply.textContent = written;
      } else if (data.type === "replied") {
        const perSecond = data.ids.length / (data.ms / 1000);
        box.dataset.ids = JSON.stringify(data.ids);
        box.dataset.tokensPerS = perSecond.toFixed(1);
        stats.textContent += "; reply: " + data.ids.length + " tokens at " +
          perSecond.toFixed(1) + " tokens/s";
        send.disabled = false;
        say("replied", "");
      } else if (data.type === "error") {
        send.disabled = false;
        say("error", data.message);
      }
    }

    function sendMessage() {
      if (send.disabled) return;
      const sampled = mode.value === "sampled";
      written = "";
      reply.textContent = "";
      stats.textContent = "";
      delete box.dataset.ids;
      send.disabled = true;
      say("replying", "");
      worker.postMessage({ type: "chat", message: message.value,
        topK: sampled ? Number(topK.value) : 1,
        temperature: sampled ? Number(temperature.value) : 1,
        seed: sampled ? Number(seed.value) : 0,
        max: Math.max(1, Math.min(512, Number(max.value) || 128)) });
    }
    send.addEventListener("click", sendMessage);
    message.addEventListener("keydown", (e) => {
      if (e.key === "Enter") sendMessage();
    });
  }

  mountOn("ch11-chat", mount);
})();

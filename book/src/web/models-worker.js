// The published models, off the page's thread: this worker holds the models' WebAssembly module
// (`attention_web_models.wasm`, built from `web-models/`: chapters 11 and 12's code, apart from
// the widgets' module) with the model it was asked for loaded in it, so that the page never
// freezes while 90 MB load, a reply is written or a recording transcribed.
//
// Messages in:  {type: "load", model: "ask" | "chat" | "hear"}, {type: "ask", question},
//               {type: "chat", message, topK, temperature, seed, max},
//               {type: "open", bytes} (a WAV file), {type: "hear", rate, samples}
// Messages out: {type: "progress", loaded, total}, {type: "loaded", ms, bytes, cached},
//               {type: "answer", hits: [[paragraph, cosine], ...], ms},
//               {type: "prompt", tokens, ms}, {type: "token", id, text},
//               {type: "replied", ids, ms}, {type: "opened", samples},
//               {type: "heard", ms, seconds, result, matrix, mel, melMs}, {type: "error", message}
//
// A model's files come from `ask/`, `chat/` or `hear/` beside this script (`files.json` there lists them
// with their sizes) and are kept in the browser's Cache Storage, so a later visit loads them
// without the network.
"use strict";

const here = new URL(".", self.location.href);
const CACHE = "attention-in-rust-models-v1";
// what each model's files become in the module: a bundle of files, or the one file's bytes
const MODELS = {
  ask: { dir: "ask/", loader: "ch12_load", bundle: true },
  chat: { dir: "chat/", loader: "ch11_load", bundle: false },
  hear: { dir: "hear/", loader: "ch13_load", bundle: true },
};
let module = null;

// The module's seam (`web/src/abi.rs`): buffers in its memory, a call, a result or an error.
function api(e) {
  const fail = () => {
    const bytes = new Uint8Array(e.memory.buffer, e.error(), e.error_len());
    throw new Error(new TextDecoder().decode(bytes));
  };
  return {
    load(name, buffer) {
      const at = e.bytes(buffer.byteLength);
      new Uint8Array(e.memory.buffer, at, buffer.byteLength).set(buffer);
      if (e[name]() !== 0) fail();
    },
    call(name, values) {
      const at = e.input(values.length);
      new Float32Array(e.memory.buffer, at, values.length).set(values);
      if (e[name]() !== 0) fail();
      return Array.from(new Float32Array(e.memory.buffer, e.output(), e.output_len()));
    },
  };
}

// A file's bytes from the cache, else from the server (and then into the cache).
async function file(cache, url, counted) {
  let response = cache ? await cache.match(url) : undefined;
  const cached = Boolean(response);
  if (!response) {
    response = await fetch(url);
    if (!response.ok) throw new Error(url + ": " + response.status);
    if (cache) await cache.put(url, response.clone());
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  counted(bytes.byteLength);
  return { bytes, cached };
}

// The files as one buffer (`web-models/src/bundle.rs`): name length, name, length, bytes.
function bundle(files) {
  const encoder = new TextEncoder();
  const parts = files.flatMap(([name, bytes]) => [encoder.encode(name), bytes]);
  const total = parts.reduce((n, p) => n + 4 + p.byteLength, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const p of parts) {
    view.setUint32(at, p.byteLength, true);
    out.set(p, at + 4);
    at += 4 + p.byteLength;
  }
  return out;
}

async function load(name) {
  const model = MODELS[name];
  if (!model) throw new Error("no model " + name);
  const start = performance.now();
  const listed = await fetch(new URL(model.dir + "files.json", here));
  if (!listed.ok) throw new Error("no model files with this copy of the book");
  const { files } = await listed.json();
  const total = files.reduce((n, [, size]) => n + size, 0);
  const cache = self.caches ? await self.caches.open(CACHE) : null;
  let loaded = 0;
  const counted = (n) => {
    loaded += n;
    self.postMessage({ type: "progress", loaded, total });
  };
  const [wasm, ...fetched] = await Promise.all([
    module ? null : fetch(new URL("attention_web_models.wasm", here)).then((r) => r.arrayBuffer()),
    ...files.map(([f]) => file(cache, new URL(model.dir + f, here).href, counted)),
  ]);
  if (!module) module = api((await WebAssembly.instantiate(wasm, {})).instance.exports);
  const bytes = model.bundle
    ? bundle(files.map(([f], i) => [f, fetched[i].bytes]))
    : fetched[0].bytes;
  module.load(model.loader, bytes);
  const cached = fetched.every((f) => f.cached);
  return { ms: performance.now() - start, bytes: total, cached };
}

const points = (text) => Array.from(text, (c) => c.codePointAt(0));

function ask(question) {
  const start = performance.now();
  const out = module.call("ch12_ask", points(question));
  const hits = [];
  for (let i = 0; i < out.length; i += 2) hits.push([out[i], out[i + 1]]);
  self.postMessage({ type: "answer", hits, ms: performance.now() - start });
}

// The reply streams: a message per token, as it comes.
function chat({ message, topK, temperature, seed, max }) {
  let start = performance.now();
  const [tokens] = module.call("ch11_start", [topK, temperature, seed, ...points(message)]);
  self.postMessage({ type: "prompt", tokens, ms: performance.now() - start });
  start = performance.now();
  const ids = [];
  for (let done = false; !done && ids.length < max; ) {
    const [id, last, ...text] = module.call("ch11_next", []);
    ids.push(id);
    done = last === 1;
    self.postMessage({ type: "token", id, text: String.fromCodePoint(...text) });
  }
  self.postMessage({ type: "replied", ids, ms: performance.now() - start });
}

// A WAV file's samples, read by chapter 13's reader; the page then hears them as a recording.
function open(bytes) {
  module.load("ch13_open", new Uint8Array(bytes));
  self.postMessage({ type: "opened", samples: new Float32Array(module.call("ch13_opened", [])) });
}

// A recording heard: resampled to 16 kHz, transcribed, each word timed (one call, the time the page
// reports), then what the page draws.
function hear({ rate, samples }) {
  const values = new Float32Array(samples.length + 1);
  values[0] = rate;
  values.set(samples, 1);
  const start = performance.now();
  const [seconds] = module.call("ch13_hear", values);
  const ms = performance.now() - start;
  const result = JSON.parse(String.fromCodePoint(...module.call("ch13_result", [])));
  const matrix = module.call("ch13_matrix", []);
  const melStart = performance.now();
  const [frames, ...mel] = module.call("ch13_spectrogram", []);
  const melMs = performance.now() - melStart;
  self.postMessage({ type: "heard", ms, seconds, result, matrix, frames, mel, melMs });
}

self.onmessage = async ({ data }) => {
  try {
    if (data.type === "load") {
      self.postMessage({ type: "loaded", ...(await load(data.model)) });
    } else if (!module) {
      throw new Error("the model is not loaded yet");
    } else if (data.type === "ask") {
      ask(data.question);
    } else if (data.type === "chat") {
      chat(data);
    } else if (data.type === "open") {
      open(data.bytes);
    } else if (data.type === "hear") {
      hear(data);
    }
  } catch (err) {
    self.postMessage({ type: "error", message: String(err.message || err) });
  }
};

// "Ask the book" off the page's thread: this worker holds the models' WebAssembly module
// (`attention_web_models.wasm`, built from `web-models/`: chapter 12's code, apart from the
// widgets' module) with all-MiniLM-L6-v2 and the book's index loaded in it, so the page never
// freezes while the 90 MB model loads or a question is embedded.
//
// Messages in:  {type: "load"}, {type: "ask", question}
// Messages out: {type: "progress", loaded, total}, {type: "loaded", ms, bytes, cached},
//               {type: "answer", hits: [[paragraph, cosine], ...], ms}, {type: "error", message}
//
// The files come from `ask/` beside this script (`ask/files.json` lists them with their sizes)
// and are kept in the browser's Cache Storage, so a later visit loads them without the network.
"use strict";

const here = new URL(".", self.location.href);
const CACHE = "attention-in-rust-ask-v1";
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

// The files as one buffer (`web/src/bundle.rs`): name length, name, length, bytes, each in turn.
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

async function load() {
  const start = performance.now();
  const listed = await fetch(new URL("ask/files.json", here));
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
    fetch(new URL("attention_web_models.wasm", here)).then((r) => r.arrayBuffer()),
    ...files.map(([name]) => file(cache, new URL("ask/" + name, here).href, counted)),
  ]);
  const { instance } = await WebAssembly.instantiate(wasm, {});
  module = api(instance.exports);
  module.load("ch12_load", bundle(files.map(([name], i) => [name, fetched[i].bytes])));
  const cached = fetched.every((f) => f.cached);
  return { ms: performance.now() - start, bytes: total, cached };
}

self.onmessage = async ({ data }) => {
  try {
    if (data.type === "load") {
      self.postMessage({ type: "loaded", ...(await load()) });
    } else if (data.type === "ask") {
      if (!module) throw new Error("the model is not loaded yet");
      const points = Array.from(data.question, (c) => c.codePointAt(0));
      const start = performance.now();
      const out = module.call("ch12_ask", points);
      const hits = [];
      for (let i = 0; i < out.length; i += 2) hits.push([out[i], out[i + 1]]);
      self.postMessage({ type: "answer", hits, ms: performance.now() - start });
    }
  } catch (err) {
    self.postMessage({ type: "error", message: String(err.message || err) });
  }
};

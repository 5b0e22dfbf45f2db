// Whisper tiny.en in chapter 13's page: the element `#ch13-hear` becomes a box that hears one of
// the chapter's clips, a WAV file or the reader's own voice, and shows what the chapter computes:
// the transcript, each word's start and end, the log-mel spectrogram, and the alignment heads'
// matrix with the dynamic-time-warping path through it. The chapter's fast path, compiled to
// WebAssembly, runs in the models' Web Worker (`web/models-worker.js`); the model (71 MB) is
// loaded on request, after the page says its size, and kept by the browser for later visits.
//
// A recording goes to the worker as the microphone gives it, one channel at the sound card's
// rate; the chapter's `recording::prepare` resamples it to 16 kHz and checks it. The element's
// `hearRecording(samples, rate)` is that path (the recorder calls it when it stops; the browser
// check calls it with known samples; `hearWav(bytes)` is the clips' and the files' path). `data-state` says where the box is (absent, idle, loading,
// loaded, recording, hearing, heard, error); `data-tokens`, `data-words` and `data-ms` hold the
// last transcript, for the browser check.
(function () {
  "use strict";
  const { web, el, megabytes, offer, mountOn } = window.AttentionModels;
  const MAX_SECONDS = 30;

  // A colour from dark blue through red to yellow for `t` in [0, 1].
  function colour(t) {
    const stops = [[13, 8, 135], [126, 3, 168], [204, 71, 120], [248, 149, 64], [240, 249, 33]];
    const x = Math.min(Math.max(t, 0), 1) * (stops.length - 1);
    const i = Math.min(Math.floor(x), stops.length - 2);
    const f = x - i;
    return stops[i].map((c, k) => Math.round(c + f * (stops[i + 1][k] - c)));
  }

  // `values` (rows × cols, row-major) as pixels on `canvas`, each cell `w` × `h` pixels, from
  // `left` pixels in; row 0 at the top, or at the bottom where `lowFirst`.
  function heatmap(canvas, values, rows, cols, w, h, left, lowFirst) {
    const g = canvas.getContext("2d");
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of values) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    const image = g.createImageData(cols * w, rows * h);
    for (let r = 0; r < rows; r++) {
      const y0 = (lowFirst ? rows - 1 - r : r) * h;
      for (let c = 0; c < cols; c++) {
        const [red, green, blue] = colour((values[r * cols + c] - lo) / (hi - lo || 1));
        for (let dy = 0; dy < h; dy++) {
          for (let dx = 0; dx < w; dx++) {
            const at = ((y0 + dy) * cols * w + c * w + dx) * 4;
            image.data.set([red, green, blue, 255], at);
          }
        }
      }
    }
    g.putImageData(image, left, 0);
  }

  // Seconds along the bottom of a figure `cols` wide, `perSecond` columns a second.
  function ticks(g, cols, w, perSecond, left, y) {
    g.fillStyle = "#666";
    g.font = "11px sans-serif";
    for (let s = 0; s * perSecond < cols; s++) {
      const x = left + s * perSecond * w;
      g.fillRect(x, y, 1, 4);
      g.fillText(s + " s", x + 2, y + 14);
    }
  }

  function drawSpectrogram(canvas, frames, mel) {
    const bands = 80;
    canvas.width = frames;
    canvas.height = bands * 2 + 18;
    const g = canvas.getContext("2d");
    g.fillStyle = "#fff";
    g.fillRect(0, 0, canvas.width, canvas.height);
    heatmap(canvas, mel, bands, frames, 1, 2, 0, true);
    ticks(g, frames, 1, 100, 0, bands * 2);
  }

  function drawAlignment(canvas, result, matrix) {
    const rows = result.rows.length;
    const cols = result.frames;
    const [w, h, left] = [2, 14, 90];
    canvas.width = left + cols * w;
    canvas.height = rows * h + 18;
    const g = canvas.getContext("2d");
    g.fillStyle = "#fff";
    g.fillRect(0, 0, canvas.width, canvas.height);
    heatmap(canvas, matrix, rows, cols, w, h, left, false);
    g.fillStyle = "#222";
    g.font = "11px monospace";
    g.textAlign = "right";
    result.rows.forEach((piece, r) => g.fillText(piece.trim(), left - 4, r * h + 11));
    g.textAlign = "left";
    g.strokeStyle = "#fff";
    g.lineWidth = 2;
    g.beginPath();
    result.path.forEach(([r, c], i) => {
      const [x, y] = [left + c * w + w / 2, r * h + h / 2];
      if (i === 0) g.moveTo(x, y);
      else g.lineTo(x, y);
    });
    g.stroke();
    ticks(g, cols, w, 50, left, rows * h);
  }

  function mount(box) {
    const status = el("p", { class: "chat-status" });
    const loadButton = el("button", { type: "button" }, "Load the model");
    const clip = el("select", { "aria-label": "A clip of the chapter" });
    const hearClip = el("button", { type: "button", disabled: "" }, "Hear the clip");
    const recordButton = el("button", { type: "button", disabled: "" }, "Record");
    const file = el("input", { type: "file", accept: ".wav,audio/wav", disabled: "",
      "aria-label": "A WAV file (16 kHz, mono, 16-bit)" });
    const transcript = el("p", { class: "hear-text" });
    const stats = el("p", { class: "chat-stats" });
    const words = el("p", { class: "hear-words", "aria-label": "Each word's start and end" });
    const spectrogram = el("canvas", { class: "hear-figure", "aria-label": "Log-mel spectrogram" });
    const alignment = el("canvas", { class: "hear-figure",
      "aria-label": "Alignment heads' matrix and the path through it" });
    const figures = el("div", { class: "hear-figures", hidden: "" },
      el("p", {}, "What Whisper heard: the log-mel spectrogram, 80 bands, low at the bottom"),
      spectrogram,
      el("p", {}, "The alignment heads' matrix, a row per token, with the path dynamic time " +
        "warping takes through it"),
      alignment);
    box.replaceChildren(status, loadButton,
      el("div", { class: "chat-row" }, clip, hearClip, recordButton),
      el("div", { class: "chat-row" }, el("label", {}, "or open a WAV file ", file)),
      transcript, stats, words, figures);

    const say = (state, text) => {
      box.dataset.state = state;
      status.textContent = text;
    };
    let worker = null;
    const controls = [hearClip, recordButton, file];
    const busy = (yes) => controls.forEach((c) => (c.disabled = yes));

    offer(box, {
      folder: "hear",
      model: "hear",
      loadButton,
      say,
      idle: (list) => {
        list.clips.forEach((name) =>
          clip.append(el("option", { value: name }, "clip " + name.slice(-8, -4))));
        return "The transcript is written in this page by the chapter's fast path, in " +
          "WebAssembly: " + megabytes(list.total) + " of model, loaded once and kept by your " +
          "browser.";
      },
      absent: "Hearing here needs Whisper tiny.en's files beside the book, and this copy was " +
        "built without them: run `cargo xtask models`, then `cargo xtask serve`.",
      ready: (loaded) => {
        worker = loaded;
        worker.onmessage = answer;
        busy(false);
      },
    });

    // The recording path: samples of one channel at `rate`, to the worker.
    box.hearRecording = (samples, rate) => {
      busy(true);
      say("hearing", "Hearing " + (samples.length / rate).toFixed(1) + " s ...");
      const copy = Float32Array.from(samples);
      worker.postMessage({ type: "hear", rate, samples: copy }, [copy.buffer]);
    };

    function heard(data) {
      const { result } = data;
      box.dataset.tokens = JSON.stringify(result.tokens);
      box.dataset.words = JSON.stringify(result.words);
      box.dataset.ms = data.ms.toFixed(0);
      box.dataset.seconds = data.seconds.toFixed(2);
      transcript.textContent = result.text.trim() || "(no words heard)";
      stats.textContent = data.seconds.toFixed(2) + " s of speech: transcript and word times in " +
        data.ms.toFixed(0) + " ms; the spectrogram in " + data.melMs.toFixed(0) + " ms";
      words.replaceChildren(...result.words.map(([word, start, end]) =>
        el("span", { class: "hear-word" }, el("b", {}, word.trim()),
          " " + start.toFixed(2) + "–" + end.toFixed(2) + " s")));
      figures.hidden = false;
      drawSpectrogram(spectrogram, data.frames, data.mel);
      drawAlignment(alignment, result, data.matrix);
      busy(false);
      say("heard", "Heard: the transcript, each word from its start to its end, and what the model saw.");
    }

    function answer({ data }) {
      if (data.type === "opened") {
        box.hearRecording(data.samples, 16000);
      } else if (data.type === "heard") {
        heard(data);
      } else if (data.type === "error") {
        busy(false);
        say("error", data.message);
      }
    }

    const openBytes = (bytes) => {
      busy(true);
      say("hearing", "Reading the file ...");
      worker.postMessage({ type: "open", bytes }, [bytes]);
    };
    box.hearWav = openBytes;
    hearClip.addEventListener("click", () => {
      fetch(web + "hear/clips/" + clip.value)
        .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(String(r.status)))))
        .then(openBytes)
        .catch((err) => say("error", "The clip did not load: " + err.message));
    });
    file.addEventListener("change", () => {
      if (file.files.length) file.files[0].arrayBuffer().then(openBytes);
    });

    // The microphone: one channel at the sound card's rate, at most 30 s, then `hearRecording`.
    let stop = null;
    recordButton.addEventListener("click", async () => {
      if (stop) {
        stop();
        return;
      }
      let stream;
      try {
        stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1,
          echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
      } catch (err) {
        say("error", "No microphone: " + err.message);
        return;
      }
      const context = new AudioContext();
      const source = context.createMediaStreamSource(stream);
      const processor = context.createScriptProcessor(4096, 1, 1);
      const chunks = [];
      let length = 0;
      const limit = MAX_SECONDS * context.sampleRate;
      stop = () => {
        stop = null;
        processor.disconnect();
        source.disconnect();
        stream.getTracks().forEach((t) => t.stop());
        context.close();
        recordButton.textContent = "Record";
        const samples = new Float32Array(Math.min(length, limit));
        let at = 0;
        for (const c of chunks) {
          const part = c.subarray(0, samples.length - at);
          samples.set(part, at);
          at += part.length;
        }
        box.hearRecording(samples, context.sampleRate);
      };
      processor.onaudioprocess = (e) => {
        const chunk = new Float32Array(e.inputBuffer.getChannelData(0));
        chunks.push(chunk);
        length += chunk.length;
        status.textContent = "Recording: " + (length / context.sampleRate).toFixed(1) + " s of " +
          MAX_SECONDS + " (press Stop)";
        if (length >= limit && stop) stop();
      };
      source.connect(processor);
      processor.connect(context.destination);
      hearClip.disabled = true;
      file.disabled = true;
      recordButton.textContent = "Stop";
      say("recording", "Recording (press Stop) ...");
    });
  }

  mountOn("ch13-hear", mount);
})();

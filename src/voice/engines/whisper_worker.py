"""Speech-to-text worker: Whisper (a CTranslate2 conversion) behind JSON lines on stdin/stdout.

Started by whisper-stt.ts, one per voice process. Each request line is {"id": n, "pcm": base64 of 16-bit little-endian
mono PCM at 16 kHz}; each answer line is {"id": n, "text": "...", "window_s": w, "decode_ms": t} or {"id": n, "error": "..."}.
The first line written is {"ready": true, ...} once the model is loaded.

The encoder window is sized to the utterance (5 s, else 10, 20 or 30 s, keeping at least 1.5 s past the audio's end: a
window barely longer than the audio makes Whisper repeat itself), which costs a fraction of the fixed 30 s window.
A short window still sometimes makes Whisper loop ("Hi, this is a reminder… Hi, this is a reminder…"): a text with
more words than the audio could hold (over 5 words a second) or that compresses too well (gzip ratio over 2.4,
Whisper's own hallucination test) is decoded again with the next larger window, up to 30 s.

Log-mel features follow Whisper's definition: 16 kHz audio padded with zeros to the window, a short-time Fourier
transform (400-sample periodic Hann window, hop 160, centred with reflection padding, last frame dropped), power
spectrum, 80 triangular mel filters (Slaney mel scale, area-normalised, 0-8 kHz), log10 clamped at 1e-10, floored at
8 below the maximum, then (x + 4) / 4.
"""

import base64
import json
import os
import sys
import time
import zlib

import numpy as np

SAMPLE_RATE = 16000
N_FFT = 400
HOP = 160
N_MELS = 80
WINDOWS_S = (5, 10, 20, 30)
MARGIN_S = 1.5


def hz_to_mel(hz):
    """Slaney's mel scale: linear to 1 kHz (200/3 Hz per mel), logarithmic above (27 mels per factor 6.4)."""
    hz = np.asarray(hz, dtype=np.float64)
    mel = hz / (200.0 / 3.0)
    log_region = hz >= 1000.0
    return np.where(log_region, 15.0 + np.log(np.maximum(hz, 1e-12) / 1000.0) / (np.log(6.4) / 27.0), mel)


def mel_to_hz(mel):
    mel = np.asarray(mel, dtype=np.float64)
    hz = mel * (200.0 / 3.0)
    return np.where(mel >= 15.0, 1000.0 * np.exp((np.log(6.4) / 27.0) * (mel - 15.0)), hz)


def mel_filters():
    """(80, 201) triangular filters over the rfft bins, each scaled to unit area (2 / bandwidth)."""
    bins = np.linspace(0.0, SAMPLE_RATE / 2.0, N_FFT // 2 + 1)
    edges = mel_to_hz(np.linspace(hz_to_mel(0.0), hz_to_mel(SAMPLE_RATE / 2.0), N_MELS + 2))
    widths = np.diff(edges)
    filters = np.zeros((N_MELS, bins.size))
    for m in range(N_MELS):
        rising = (bins - edges[m]) / widths[m]
        falling = (edges[m + 2] - bins) / widths[m + 1]
        filters[m] = np.maximum(0.0, np.minimum(rising, falling)) * (2.0 / (edges[m + 2] - edges[m]))
    return filters.astype(np.float32)


FILTERS = mel_filters()
HANN = (0.5 - 0.5 * np.cos(2.0 * np.pi * np.arange(N_FFT) / N_FFT)).astype(np.float32)  # periodic


def log_mel(audio, window_s):
    """(80, window_s * 100) features of float audio padded (or cut) to window_s seconds."""
    n = window_s * SAMPLE_RATE
    padded = np.zeros(n, dtype=np.float32)
    padded[: min(n, audio.size)] = audio[:n]
    centred = np.pad(padded, N_FFT // 2, mode="reflect")
    frames = 1 + (centred.size - N_FFT) // HOP
    strided = np.lib.stride_tricks.as_strided(
        centred, shape=(frames, N_FFT), strides=(centred.strides[0] * HOP, centred.strides[0])
    )
    spectrum = np.fft.rfft(strided * HANN, axis=1)
    power = (spectrum.real**2 + spectrum.imag**2)[:-1].T  # (201, frames - 1): the last frame is dropped
    mel = FILTERS @ power
    log_spec = np.log10(np.maximum(mel, 1e-10))
    log_spec = np.maximum(log_spec, log_spec.max() - 8.0)
    return ((log_spec + 4.0) / 4.0).astype(np.float32)


def window_for(seconds):
    for w in WINDOWS_S:
        if seconds + MARGIN_S <= w:
            return w
    return WINDOWS_S[-1]


def implausible(text, seconds):
    """A looping decode: more words than the audio could hold, or text that repeats itself (compresses too well)."""
    if len(text.split()) > 2 + 5 * seconds:
        return True
    raw = text.encode("utf-8")
    return len(raw) > 40 and len(raw) / len(zlib.compress(raw)) > 2.4


def main():
    import ctranslate2
    from tokenizers import Tokenizer

    model_dir = os.environ["WHISPER_MODEL_DIR"]
    threads = int(os.environ.get("WHISPER_THREADS", "2"))
    started = time.perf_counter()
    model = ctranslate2.models.Whisper(model_dir, device="cpu", compute_type=os.environ.get("WHISPER_COMPUTE_TYPE", "int8"), intra_threads=threads)
    tokenizer = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    prompt = [tokenizer.token_to_id(t) for t in ("<|startoftranscript|>", "<|notimestamps|>")]
    if model.is_multilingual:
        prompt = [prompt[0], tokenizer.token_to_id("<|en|>"), tokenizer.token_to_id("<|transcribe|>"), prompt[1]]
    # A warm-up decode, so the first utterance does not pay for the first allocation.
    model.generate(ctranslate2.StorageView.from_array(log_mel(np.zeros(SAMPLE_RATE, dtype=np.float32), 5)[None]), [prompt], max_length=8)
    write({"ready": True, "load_ms": round((time.perf_counter() - started) * 1000), "multilingual": model.is_multilingual})

    def decode(audio, window, seconds):
        features = ctranslate2.StorageView.from_array(log_mel(audio, window)[None])
        result = model.generate(
            features,
            [prompt],
            beam_size=1,
            # 10 tokens a second of audio is twice what speech needs: a loop cannot run on for long.
            max_length=int(min(448, 12 + 10 * seconds)),
            repetition_penalty=1.1,
            no_repeat_ngram_size=4,
            suppress_blank=True,
        )[0]
        return tokenizer.decode(result.sequences_ids[0], skip_special_tokens=True).strip()

    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            pcm = np.frombuffer(base64.b64decode(request["pcm"]), dtype="<i2")
            audio = pcm.astype(np.float32) / 32768.0
            seconds = audio.size / SAMPLE_RATE
            if seconds > WINDOWS_S[-1]:
                audio = audio[-WINDOWS_S[-1] * SAMPLE_RATE :]  # keep the last 30 s
                seconds = WINDOWS_S[-1]
            window = window_for(seconds)
            t0 = time.perf_counter()
            windows = [window]
            text = decode(audio, window, seconds)
            while implausible(text, seconds) and window < WINDOWS_S[-1]:
                window = WINDOWS_S[WINDOWS_S.index(window) + 1]
                windows.append(window)
                text = decode(audio, window, seconds)
            write({"id": request_id, "text": text, "window_s": windows, "decode_ms": round((time.perf_counter() - t0) * 1000)})
        except Exception as err:  # one bad request must not end the worker
            write({"id": request_id, "error": f"{type(err).__name__}: {err}"})


def write(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

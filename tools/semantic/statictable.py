"""Reads and writes the static model's files (table.bin, vocab.txt) as format.md lays them out."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from wordtok import RowTokenizer

MAGIC = b"PBSTATIC"
VERSION = 1


def quantize_rows(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 values and a float32 scale per row: scale = max|v| / 127, values = round(v / scale)."""
    v = vectors.astype(np.float64)
    peak = np.abs(v).max(axis=1)
    scale = np.where(peak > 0, peak / 127.0, 1.0)
    q = np.clip(np.rint(v / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale.astype(np.float32)


def write_table(path: Path, values: np.ndarray, scales: np.ndarray) -> None:
    rows, dims = values.shape
    with open(path, "wb") as f:
        f.write(MAGIC)
        f.write(struct.pack("<III", VERSION, rows, dims))
        f.write(scales.astype("<f4").tobytes())
        f.write(values.astype(np.int8).tobytes())


def write_vocab(path: Path, tokens: list[str]) -> None:
    for t in tokens:
        if not t or "\n" in t or "\r" in t:
            raise ValueError(f"token {t!r} cannot be a line of vocab.txt")
    path.write_bytes(("\n".join(tokens) + "\n").encode("utf-8"))


class StaticTable:
    """A loaded table: tokens, dequantised float32 rows, and the run-time embedding."""

    def __init__(self, tokens: list[str], vectors: np.ndarray):
        self.tokens = tokens
        self.vectors = vectors
        self.rows, self.dims = vectors.shape
        self.tok = RowTokenizer(tokens)

    @classmethod
    def load(cls, folder: Path) -> "StaticTable":
        data = (folder / "table.bin").read_bytes()
        if data[:8] != MAGIC:
            raise ValueError(f"{folder / 'table.bin'}: not a PBSTATIC table")
        version, rows, dims = struct.unpack_from("<III", data, 8)
        if version != VERSION:
            raise ValueError(f"table version {version}, want {VERSION}")
        off = 20
        scales = np.frombuffer(data, dtype="<f4", count=rows, offset=off)
        off += 4 * rows
        values = np.frombuffer(data, dtype=np.int8, count=rows * dims, offset=off).reshape(rows, dims)
        if off + rows * dims != len(data):
            raise ValueError("table.bin size does not match its header")
        tokens = (folder / "vocab.txt").read_text(encoding="utf-8").split("\n")
        if tokens and tokens[-1] == "":
            tokens.pop()
        if len(tokens) != rows:
            raise ValueError(f"vocab.txt has {len(tokens)} lines, table.bin {rows} rows")
        return cls(tokens, values.astype(np.float32) * scales[:, None])

    def embed(self, texts: list[str]) -> np.ndarray:
        """Mean of the token rows, L2-normalised; a text with no known token is the zero vector."""
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for i, t in enumerate(texts):
            ids = self.tok.rows(t)
            if ids:
                v = self.vectors[ids].mean(axis=0)
                n = np.linalg.norm(v)
                if n > 0:
                    out[i] = v / n
        return out

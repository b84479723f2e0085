"""The static model's run-time tokenisation (format.md), in Python: BERT's BasicTokenizer, then
whole-word rows or WordPiece over the rows. The distiller counts frequencies with it and
eval_dense.py embeds with it, so both see text exactly as the Go loader does."""

from __future__ import annotations

import unicodedata
from collections import Counter
from typing import Iterable

MAX_WORD_CHARS = 100


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


def basic_words(text: str) -> list[str]:
    """BERT BasicTokenizer: drop control chars, split on whitespace, lower-case, NFD and drop
    combining marks, every punctuation character and CJK ideograph a word of its own."""
    out: list[str] = []
    cur: list[str] = []

    def flush():
        if cur:
            out.append("".join(cur))
            cur.clear()

    for ch in text:
        cp = ord(ch)
        if ch in " \t\n\r" or unicodedata.category(ch) == "Zs":
            flush()
            continue
        if cp == 0 or cp == 0xFFFD or unicodedata.category(ch).startswith("C"):
            continue
        if _is_cjk(cp):
            flush()
            out.append(ch)
            continue
        for f in unicodedata.normalize("NFD", ch.lower()):
            if unicodedata.category(f) == "Mn":
                continue
            if _is_punct(f):
                flush()
                out.append(f)
            else:
                cur.append(f)
    flush()
    return out


class RowTokenizer:
    """Maps a word to table rows: the whole word if it is a row, else WordPiece greedy
    longest-match-first (first piece over plain rows, then ## rows); unsplittable words give
    nothing."""

    def __init__(self, tokens: list[str]):
        self.whole: dict[str, int] = {}
        self.cont: dict[str, int] = {}
        for i, t in enumerate(tokens):
            if t.startswith("##"):
                self.cont[t[2:]] = i
            else:
                self.whole[t] = i
        self.max_whole = max((len(k) for k in self.whole), default=0)
        self.max_cont = max((len(k) for k in self.cont), default=0)
        self._cache: dict[str, list[int]] = {}

    def word_rows(self, word: str) -> list[int]:
        got = self._cache.get(word)
        if got is not None:
            return got
        got = self._split(word)
        self._cache[word] = got
        return got

    def _split(self, word: str) -> list[int]:
        if word in self.whole:
            return [self.whole[word]]
        if len(word) > MAX_WORD_CHARS:
            return []
        ids: list[int] = []
        pos = 0
        while pos < len(word):
            table, mx = (self.whole, self.max_whole) if pos == 0 else (self.cont, self.max_cont)
            end = min(len(word), pos + mx)
            while end > pos and word[pos:end] not in table:
                end -= 1
            if end == pos:
                return []
            ids.append(table[word[pos:end]])
            pos = end
        return ids

    def rows(self, text: str) -> list[int]:
        out: list[int] = []
        for w in basic_words(text):
            out.extend(self.word_rows(w))
        return out


def count_words(texts: Iterable[str]) -> Counter:
    """Occurrences of each BasicTokenizer word over texts."""
    c: Counter = Counter()
    for t in texts:
        c.update(basic_words(t))
    return c

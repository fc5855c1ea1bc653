"""Tokens as the text they stand for, for labels; the raw token stays for hover and exports. Pure.

Byte-level BPE (GPT-2, Llama 3, SmolLM2) writes every byte of the text as one printable character:
the printable ASCII and Latin-1 bytes as themselves, the other 68 bytes (space, newline, controls,
0x7F–0xA0, 0xAD) as the characters U+0100 onwards, so a space is "Ġ" and a newline "Ċ". Reading a token
back means mapping each character to its byte and decoding UTF-8; a token may hold only part of a
character (a Chinese character is three bytes, often split), and those bytes are shown as ⟨e4⟩.
SentencePiece (T5, Llama 2) writes a leading space as "▁" and bytes it has no piece for as <0xE4>.

What a label shows: a leading space as a thin mark (LEADING_SPACE), a newline as ⏎, a tab as ⇥, other
control characters as their Unicode control pictures (␀ … ␟, ␡), never invisible.
"""

from __future__ import annotations

import re
from functools import lru_cache

from attention.analysis.special_tokens import is_special
from attention.analysis.word_merge import SP_SPACE, Scheme, detect_scheme

LEADING_SPACE = "·"  # one thin dot before a word that starts with a space
NEWLINE, TAB = "⏎", "⇥"
_SP_BYTE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


@lru_cache(maxsize=1)
def byte_of_char() -> dict[str, int]:
    """The byte-level BPE alphabet read backwards: character -> the byte it stands for (256 entries)."""
    printable = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAC + 1), *range(0xAE, 0xFF + 1)]
    table = {chr(b): b for b in printable}
    shifted = 0
    for b in range(256):  # the remaining bytes, in order, take U+0100, U+0101, …
        if b not in printable:
            table[chr(0x100 + shifted)] = b
            shifted += 1
    return table


@lru_cache(maxsize=1)
def _shifted() -> frozenset[str]:
    return frozenset(c for c in byte_of_char() if ord(c) >= 0x100)


def is_byte_level(tokens: tuple[str, ...] | list[str]) -> bool:
    """Some token holds a character that only byte-level BPE writes (a shifted byte: Ġ, Ċ, ĉ, …), or the
    tokens, every character read as a byte, make valid UTF-8 beyond ASCII: SmolLM2 writes 是人类 as
    "æĺ¯", "äºº", "ç±»" (no shifted byte, no space), which no other scheme would write (Latin-1 text in
    another tokenizer, "café", is not valid UTF-8 read so)."""
    shifted = _shifted()
    if any(c in shifted for t in tokens for c in t):
        return True
    table = byte_of_char()
    ordinary = [t for t in tokens if t and not is_special(t)]
    if not ordinary or not all(c in table for t in ordinary for c in t):
        return False
    raw = bytes(table[c] for t in ordinary for c in t)
    if raw.isascii():
        return False
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def scheme_of(tokens: tuple[str, ...] | list[str]) -> Scheme:
    """How the tokens were written: byte-level BPE when a shifted byte appears, else word_merge's guess."""
    return "bpe" if is_byte_level(tokens) else detect_scheme(tokens)


def _bytes_text(raw: bytes) -> str:
    """UTF-8 decoded; bytes that do not make a whole character shown as ⟨hex⟩."""
    out, i = [], 0
    while i < len(raw):
        for width in (1, 2, 3, 4):  # the shortest run that decodes
            try:
                out.append(raw[i : i + width].decode("utf-8"))
                i += width
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(f"⟨{raw[i]:02x}⟩")
            i += 1
    return "".join(out)


def text_of(token: str, scheme: Scheme) -> str:
    """The text a token stands for (spaces and newlines as themselves): "Ġcat" -> " cat" (bpe),
    "▁cat" -> " cat" (sentencepiece); other schemes unchanged."""
    if scheme == "bpe":
        table = byte_of_char()
        if all(c in table for c in token):
            return _bytes_text(bytes(table[c] for c in token))
        return token  # a special token such as <|endoftext|> or one outside the alphabet: as it is
    if scheme == "sentencepiece":
        raw = _SP_BYTE.fullmatch(token)
        if raw:
            return _bytes_text(bytes([int(raw.group(1), 16)]))
        return token.replace(SP_SPACE, " ")
    return token


def shown(text: str) -> str:
    """Text made visible for a label: a leading space as a thin mark, newlines ⏎, tabs ⇥, other control
    characters as control pictures, invisible spaces (no-break, zero-width, ideographic) as marks; every
    other character as it is."""
    if text and not text.strip(" "):  # a token of spaces only: one mark each
        return LEADING_SPACE * len(text)
    head = LEADING_SPACE if text.startswith(" ") else ""
    body = text[1:] if head else text
    return head + "".join(_visible(c) for c in body)


def _visible(c: str) -> str:
    if c == "\n":
        return NEWLINE
    if c == "\t":
        return TAB
    code = ord(c)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟
    if code == 0x7F:
        return "␡"
    if c in _INVISIBLE:
        return _INVISIBLE[c]
    return c


# Characters a label would show as nothing (a blank row in the logit lens): named by a visible mark.
_INVISIBLE = {"\u00a0": "⍽", "\u200b": "␣", "\u3000": "□", "\ufeff": "␣"}


def readable(token: str, scheme: Scheme | None = None) -> str:
    """One token as a label shows it; the scheme is guessed from the token alone when not given.
    Tokens of a scheme without markers (WordPiece, whole words) come back exactly as they are."""
    return _readable(token, scheme_of([token]) if scheme is None else scheme)


@lru_cache(maxsize=65_536)  # a page labels the same few thousand tokens on every rerun
def _readable(token: str, scheme: Scheme) -> str:
    return shown(text_of(token, scheme)) if scheme in ("bpe", "sentencepiece") else token


def readable_tokens(tokens: tuple[str, ...] | list[str], scheme: Scheme | None = None) -> list[str]:
    """Every token as a label shows it, the scheme read from the whole sequence (or given). Byte-level
    tokens are read together (piece_labels): a character split over tokens is written whole in each."""
    scheme = scheme_of(tokens) if scheme is None else scheme
    if scheme == "bpe":
        return piece_labels(tokens)
    return [readable(t, scheme) for t in tokens]


PART = "…"  # beside a character of which this token holds a piece only, on the side where it goes on


def _pieces(raw: bytes) -> list[tuple[int, int, str | None]]:
    """(start, end, character) of each UTF-8 character in raw; None for a byte that makes none."""
    out, i = [], 0
    while i < len(raw):
        for width in (1, 2, 3, 4):
            try:
                out.append((i, i + width, raw[i : i + width].decode("utf-8")))
                i += width
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append((i, i + 1, None))
            i += 1
    return out


def piece_labels(tokens: tuple[str, ...] | list[str], before: bytes = b"") -> list[str]:
    """Byte-level BPE tokens read in order, each as a label shows it. A character whose UTF-8 bytes are
    split over tokens (SmolLM2 reads a Chinese character as 3 bytes, often in two tokens) is written whole
    in every token holding a piece of it, with PART where it goes on: "人…" then "…人". `before`: bytes
    of the text just before the first token (a next-token candidate completing a character begun there).
    Special tokens (<|im_end|>) stay as they are and break the run."""
    table = byte_of_char()
    labels: list[str | None] = [None] * len(tokens)
    run: list[tuple[int, int, int]] = []  # (token index, start, end) in the run's bytes
    stream = bytearray(before)

    def flush() -> None:
        chars = _pieces(bytes(stream))
        first = 0  # the tokens' byte ranges come in order: each looks only at the characters it overlaps
        for index, start, end in run:
            text = []
            while first < len(chars) and chars[first][1] <= start:
                first += 1
            for c0, c1, ch in chars[first:first + end - start + 1]:  # a token's bytes hold at most that many
                if c0 >= end:
                    break
                if ch is None:
                    text.append(f"⟨{stream[c0]:02x}⟩")
                    continue
                left, right = c0 < start, c1 > end
                text.append((PART if left else "") + ch + (PART if right else ""))
            labels[index] = shown("".join(text))
        run.clear()
        stream.clear()

    for i, tok in enumerate(tokens):
        if tok and all(c in table for c in tok):
            start = len(stream)
            stream.extend(table[c] for c in tok)
            run.append((i, start, len(stream)))
        else:
            flush()
            labels[i] = tok
    flush()
    return [lab if lab is not None else "" for lab in labels]


def pending_bytes(tokens: tuple[str, ...] | list[str]) -> bytes:
    """The bytes at the end of byte-level tokens that do not yet make a whole character (b"" when none):
    what a next token may complete."""
    table = byte_of_char()
    raw = bytearray()
    for tok in tokens:
        if tok and all(c in table for c in tok):
            raw.extend(table[c] for c in tok)
        else:
            raw.clear()
    pieces = _pieces(bytes(raw))
    tail = bytearray()
    for c0, _, ch in reversed(pieces):
        if ch is not None or len(tail) >= 3:
            break
        tail[:0] = raw[c0 : c0 + 1]
    return bytes(tail)


def candidate_labels(candidates: tuple[str, ...] | list[str], context: tuple[str, ...] | list[str],
                     scheme: Scheme | None = None) -> list[str]:
    """Next-token candidates as labels: alternatives, not a sequence, each read after `context` (a byte-level
    piece that completes a character the context left unfinished is written as that character)."""
    scheme = scheme_of([*context, *candidates]) if scheme is None else scheme
    if scheme != "bpe":
        return [readable(t, scheme) for t in candidates]
    before = pending_bytes(list(context)[-6:])  # a character is at most 4 bytes: a few tokens back suffice
    return [piece_labels([t], before=before)[0] for t in candidates]

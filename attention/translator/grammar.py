"""The grammar of the translator's corpus: typed lexicon entries, agreement, and the four
sentence patterns, each building an English/Spanish pair with its gold word alignment.

corpus.py draws from these at random; see its docstring for what the patterns exercise.
"""

from __future__ import annotations

from dataclasses import dataclass

from attention.translator.lexicon import ADJECTIVE_TABLE, NOUN_TABLE, VERB_TABLE

# The lexicon's tables are in lexicon.py; they are parsed into typed entries below.

# english singular, plural | spanish m.sg f.sg m.pl f.pl ("-": the determiner has no such number)
DETERMINERS = {
    "the": (("the", "the"), ("el", "la", "los", "las")),
    "a": (("a", "some"), ("un", "una", "unos", "unas")),
    "this": (("this", "these"), ("este", "esta", "estos", "estas")),
    "that": (("that", "those"), ("ese", "esa", "esos", "esas")),
    "my": (("my", "my"), ("mi", "mi", "mis", "mis")),
    "his": (("his", "his"), ("su", "su", "sus", "sus")),
    "her": (("her", "her"), ("su", "su", "sus", "sus")),
    "our": (("our", "our"), ("nuestro", "nuestra", "nuestros", "nuestras")),
}
DETERMINER_WEIGHTS = {"the": 10, "a": 4, "this": 1.5, "that": 1.5, "my": 1.5, "his": 1, "her": 1, "our": 1}

# "to be": english [tense][plural]; spanish with an adjective (ser) and with a place (estar)
BE_EN = {("present", False): "is", ("present", True): "are", ("past", False): "was", ("past", True): "were"}
SER = {("present", False): "es", ("present", True): "son", ("past", False): "era", ("past", True): "eran"}
ESTAR = {("present", False): "está", ("present", True): "están", ("past", False): "estaba", ("past", True): "estaban"}
DO_EN = {("present", False): "does", ("present", True): "do", ("past", False): "did", ("past", True): "did"}

# preposition: (spanish, tags of the place noun, tags the subject needs)
PREPOSITIONS = {
    "in": ("en", {"inside", "container"}, {"human", "animal", "portable"}),
    "on": ("sobre", {"surface"}, {"human", "animal", "portable"}),
    "under": ("bajo", {"cover"}, {"human", "animal", "portable"}),
    "with": ("con", {"human", "animal"}, {"human", "animal"}),
}

# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Noun:
    en: str
    en_plural: str | None  # None: a mass noun, singular only
    es: str
    es_plural: str | None
    gender: str  # "m" or "f"
    tags: frozenset[str]


@dataclass(frozen=True)
class Adjective:
    en: str
    es: tuple[str, str, str, str]  # m.sg, f.sg, m.pl, f.pl
    goes_with: frozenset[str]


@dataclass(frozen=True)
class Verb:
    en: tuple[str, str, str]  # base, 3rd person singular present, past
    es: tuple[str, str, str, str]  # present sg, present pl, past sg, past pl
    subject: frozenset[str]
    object: frozenset[str] | None  # None: intransitive


@dataclass(frozen=True)
class Pair:
    """One sentence pair: lowercase word tokens, and for every target word the index of the
    source word it translates (-1: none)."""

    source: tuple[str, ...]
    target: tuple[str, ...]
    alignment: tuple[int, ...]

    @property
    def source_text(self) -> str:
        return " ".join(self.source)

    @property
    def target_text(self) -> str:
        return " ".join(self.target)


def _dash_is_none(word: str) -> str | None:
    """A table writes "-" where a noun has no such form."""
    return None if word == "-" else word


def _parse_nouns(table: str) -> tuple[Noun, ...]:
    nouns = []
    for line in table.strip().splitlines():
        en, en_pl, es, es_pl, gender, *tags = line.split()
        nouns.append(Noun(en, _dash_is_none(en_pl), es, _dash_is_none(es_pl), gender, frozenset(tags)))
    return tuple(nouns)


def _parse_adjectives(table: str) -> tuple[Adjective, ...]:
    adjectives = []
    for line in table.strip().splitlines():
        en, m_sg, f_sg, m_pl, f_pl, *tags = line.split()
        adjectives.append(Adjective(en, (m_sg, f_sg, m_pl, f_pl), frozenset(tags)))
    return tuple(adjectives)


def _parse_verbs(table: str) -> tuple[Verb, ...]:
    verbs = []
    for line in table.strip().splitlines():
        en, es, subject, obj = (part.split() for part in line.split("|"))
        verbs.append(Verb(tuple(en), tuple(es), frozenset(subject), None if obj == ["-"] else frozenset(obj)))
    return tuple(verbs)


NOUNS = _parse_nouns(NOUN_TABLE)
ADJECTIVES = _parse_adjectives(ADJECTIVE_TABLE)
VERBS = _parse_verbs(VERB_TABLE)
TRANSITIVE = tuple(v for v in VERBS if v.object is not None)
INTRANSITIVE = tuple(v for v in VERBS if v.object is None)


def noun_entry(en: str) -> Noun:
    return next(n for n in NOUNS if n.en == en)


def adjective_entry(en: str) -> Adjective:
    return next(a for a in ADJECTIVES if a.en == en)


def verb_entry(en: str, transitive: bool) -> Verb:
    return next(v for v in (TRANSITIVE if transitive else INTRANSITIVE) if v.en[0] == en)


def _agree(forms: tuple[str, str, str, str], gender: str, plural: bool) -> str:
    """Pick the form of a determiner or adjective that agrees with the noun: m.sg, f.sg, m.pl, f.pl."""
    return forms[2 * plural + (gender == "f")]


# ----------------------------------------------------------------------------------------------
# Realising a sentence: English words are appended first, so Spanish words can point at them.


@dataclass(frozen=True)
class NounPhrase:
    noun: Noun
    determiner: str  # a key of DETERMINERS
    plural: bool
    adjective: Adjective | None = None


class _Builder:
    """Collects the two sides of a pair; `en` returns the index of the word it appended."""

    def __init__(self) -> None:
        self.source: list[str] = []
        self.target: list[str] = []
        self.alignment: list[int] = []

    def en(self, word: str) -> int:
        self.source.append(word)
        return len(self.source) - 1

    def es(self, word: str, aligned_to: int) -> None:
        self.target.append(word)
        self.alignment.append(aligned_to)

    def noun_phrase(self, np: NounPhrase, personal_a: bool = False) -> None:
        """the black cat -> el gato negro; with personal_a (a human object): a la niña, al niño."""
        noun, n = np.noun, np.noun.gender
        en_noun = noun.en_plural if np.plural else noun.en
        en_det = DETERMINERS[np.determiner][0][np.plural]
        if en_det == "a" and (np.adjective.en if np.adjective else en_noun)[0] in "aeiou":
            en_det = "an"  # an apple, an old cat
        i_det = self.en(en_det)
        i_adj = self.en(np.adjective.en) if np.adjective else None
        i_noun = self.en(en_noun)
        det = _agree(DETERMINERS[np.determiner][1], n, np.plural)
        if personal_a and det == "el":
            self.es("al", i_det)  # a + el
        else:
            if personal_a:
                self.es("a", -1)
            self.es(det, i_det)
        self.es(noun.es_plural if np.plural else noun.es, i_noun)
        if np.adjective:
            self.es(_agree(np.adjective.es, n, np.plural), i_adj)

    def negation(self, negated: bool) -> int | None:
        return self.en("not") if negated else None

    def pair(self) -> Pair:
        return Pair(tuple(self.source), tuple(self.target), tuple(self.alignment))


def copula(subject: NounPhrase, adjective: Adjective, tense: str, negated: bool) -> Pair:
    """NP is (not) ADJ .  ->  NP (no) es ADJ ."""
    b = _Builder()
    b.noun_phrase(subject)
    i_be = b.en(BE_EN[tense, subject.plural])
    i_not = b.negation(negated)
    i_adj = b.en(adjective.en)
    i_dot = b.en(".")
    if negated:
        b.es("no", i_not)
    b.es(SER[tense, subject.plural], i_be)
    b.es(_agree(adjective.es, subject.noun.gender, subject.plural), i_adj)
    b.es(".", i_dot)
    return b.pair()


def _verb_form_es(verb: Verb, tense: str, plural: bool) -> str:
    return verb.es[2 * (tense == "past") + plural]


def _verb_words_en(b: _Builder, verb: Verb, tense: str, plural: bool, negated: bool) -> tuple[int, int | None]:
    """drinks / drink / drank, or does not drink / do not drink / did not drink.
    Returns the indices of the main verb and of "not"."""
    if negated:
        b.en(DO_EN[tense, plural])
        i_not = b.en("not")
        return b.en(verb.en[0]), i_not
    if tense == "past":
        return b.en(verb.en[2]), None
    return b.en(verb.en[0] if plural else verb.en[1]), None


def _subject_and_verb(subject: NounPhrase, verb: Verb, tense: str, negated: bool) -> _Builder:
    """NP (not) VERB  ->  NP (no) VERB: the start every clause with a verb shares."""
    b = _Builder()
    b.noun_phrase(subject)
    i_verb, i_not = _verb_words_en(b, verb, tense, subject.plural, negated)
    if negated:
        b.es("no", i_not)
    b.es(_verb_form_es(verb, tense, subject.plural), i_verb)
    return b


def transitive(subject: NounPhrase, verb: Verb, obj: NounPhrase, tense: str, negated: bool) -> Pair:
    """NP VERB NP .  ->  NP (no) VERB (a) NP ."""
    b = _subject_and_verb(subject, verb, tense, negated)
    b.noun_phrase(obj, personal_a="human" in obj.noun.tags)
    b.es(".", b.en("."))
    return b.pair()


def intransitive(subject: NounPhrase, verb: Verb, tense: str, negated: bool) -> Pair:
    """NP VERB .  ->  NP (no) VERB ."""
    b = _subject_and_verb(subject, verb, tense, negated)
    b.es(".", b.en("."))
    return b.pair()


def location(subject: NounPhrase, preposition: str, place: NounPhrase, tense: str, negated: bool) -> Pair:
    """NP is (not) PREP NP .  ->  NP (no) está PREP NP ."""
    b = _Builder()
    b.noun_phrase(subject)
    i_be = b.en(BE_EN[tense, subject.plural])
    i_not = b.negation(negated)
    i_prep = b.en(preposition)
    if negated:
        b.es("no", i_not)
    b.es(ESTAR[tense, subject.plural], i_be)
    b.es(PREPOSITIONS[preposition][0], i_prep)
    b.noun_phrase(place)
    b.es(".", b.en("."))
    return b.pair()


def verb_forms() -> frozenset[str]:
    """Every English verb form the grammar knows: enough to find "drank" in the example sentence."""
    return frozenset(w for v in VERBS for w in v.en)

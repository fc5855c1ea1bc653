"""The one copy of "token as inline code" and of literal markdown; the printout reads code() back."""

from attention.params.markdown import code, literal
from attention.lesson.printout import inline


def test_a_token_is_inline_code_whatever_backticks_it_holds():
    assert code("milk") == "`milk`"
    assert code("a`b") == "`` a`b ``"
    assert inline(code("a`b")) == "<code>a`b</code>"  # the printout reads back exactly what code() wrote
    assert inline(code("<x>")) == "<code>&lt;x&gt;</code>"


def test_literal_escapes_every_mark_and_keeps_letters():
    assert literal("**las** [x](y)") == "\\*\\*las\\*\\* \\[x\\]\\(y\\)"
    assert literal("牛奶 milk") == "牛奶 milk"


def test_literal_escapes_ascii_punctuation_only():
    """Issue 46: markdown escapes ASCII punctuation only, so Compare printed "\\·doctor" for "·doctor"."""
    assert literal("·doctor ⏎ 医生。") == "·doctor ⏎ 医生。"
    assert literal("$x$ _a_ :b: <c>") == "\\$x\\$ \\_a\\_ \\:b\\: \\<c\\>"

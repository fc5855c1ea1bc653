"""#46 item 7: byte-level pieces of a Chinese character are written as that character, marked as parts
where a piece alone is not one, the same way for a sequence and for a next-token candidate. Pure."""

from attention.analysis.token_text import byte_of_char, pending_bytes, piece_labels, readable_tokens

_CHAR_OF = {b: c for c, b in byte_of_char().items()}


def bpe(raw: bytes) -> str:
    """raw bytes written as one byte-level BPE token (what SmolLM2's tokenizer holds)."""
    return "".join(_CHAR_OF[b] for b in raw)


def test_a_character_split_over_tokens_is_written_whole_in_each_with_its_side_marked():
    text = "我是人".encode()  # 9 bytes, cut 4 + 4 + 1: 是 and 人 split
    assert piece_labels([bpe(text[:4]), bpe(text[4:8]), bpe(text[8:])]) == ["我是…", "…是人…", "…人"]


def test_a_sequence_keeps_spaces_marks_and_special_tokens():
    space_ren = " 人".encode()
    tokens = ["Ġthe", bpe(space_ren[:3]), bpe(space_ren[3:]), "<|im_end|>", bpe("好".encode())]
    assert readable_tokens(tokens) == ["·the", "·人…", "…人", "<|im_end|>", "好"]


def test_a_candidate_completing_the_texts_last_character_is_that_character():
    guo = "国".encode()  # e5 9b bd
    before = pending_bytes(["Ġthe", bpe(guo[:2])])
    assert before == guo[:2]
    assert piece_labels([bpe(guo[2:])], before=before) == ["…国"]
    assert pending_bytes(["Ġthe", bpe(guo)]) == b""  # nothing left unfinished
    assert piece_labels([bpe(guo[:1])]) == ["⟨e5⟩"]  # a lone lead byte makes no character yet


def test_byte_pieces_that_are_whole_characters_are_read_as_bytes_without_a_space_or_shifted_byte():
    """SmolLM2 writes 人类 as two tokens holding only Latin-1 look-alikes ("äºº", "ç±»"): no "Ġ",
    yet read as bytes they are UTF-8; Latin-1 text of another tokenizer ("café") is not, and stays as it is."""
    tokens = [bpe(ch.encode()) for ch in "人类"]
    assert not any(ord(c) >= 0x100 for t in tokens for c in t)  # nothing but look-alikes
    assert readable_tokens(tokens) == ["人", "类"]
    assert readable_tokens(["[CLS]", "café", "[SEP]"]) == ["[CLS]", "café", "[SEP]"]
    assert readable_tokens(["naïve", "##ly"]) == ["naïve", "##ly"]

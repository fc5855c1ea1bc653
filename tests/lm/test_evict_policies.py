"""Each eviction policy's kept set on tiny cases written by hand from its published rule
(attention/lm/evict_policies.py): no model, numbers small enough to check in one's head."""

import numpy as np

from attention.lm import evict_policies as pol


def kept(mask: np.ndarray) -> list[int]:
    return [int(i) for i in np.flatnonzero(mask)]


def test_streaming_keeps_the_sinks_and_the_most_recent():
    # query at 9 (keys 0..9), budget 6, 2 sinks: 0, 1 and the last four 6..9
    assert kept(pol.streaming(9, 6, sinks=2)) == [0, 1, 6, 7, 8, 9]
    assert kept(pol.streaming(9, 6)) == [0, 1, 2, 3, 8, 9]  # 4 sinks by default
    assert kept(pol.streaming(9, 3, sinks=4)) == [0, 1, 9]  # sinks never crowd out the query itself


def test_window_keeps_only_the_most_recent():
    assert kept(pol.window(9, 4)) == [6, 7, 8, 9]


def test_a_budget_larger_than_the_text_keeps_everything():
    assert kept(pol.streaming(4, 10)) == kept(pol.window(4, 5)) == [0, 1, 2, 3, 4]
    assert pol.h2o(np.ones((2, 4), bool), np.zeros((2, 4)), 9).all()
    assert pol.tova(np.ones(4, bool), np.zeros((3, 4)), 5).all()
    assert pol.snapkv(np.ones((2, 3, 6)), 6).all()


def test_h2o_keeps_half_recent_and_the_heavy_hitters_per_head():
    # new query at 6 (keys 0..6), budget 4: recent = 5, 6; two heavy hitters among 0..4 per head
    prev = np.ones((2, 6), bool)
    acc = np.array([[5.0, 0.1, 3.0, 0.2, 0.3, 9.0],    # head 0: 0 and 2 heaviest among 0..4 (5 is recent)
                    [0.0, 4.0, 0.0, 0.0, 7.0, 0.0]])   # head 1: 1 and 4
    out = pol.h2o(prev, acc, 4)
    assert kept(out[0]) == [0, 2, 5, 6] and kept(out[1]) == [1, 4, 5, 6]


def test_h2o_never_brings_back_an_evicted_key_and_ties_go_to_the_later_key():
    prev = np.array([[False, True, True, True, True]])  # key 0 was evicted before
    acc = np.array([[100.0, 1.0, 1.0, 1.0, 1.0]])       # heaviest, but gone; 1..3 tie
    out = pol.h2o(prev, acc, 4)  # query at 5: recent 4, 5; two heavy hitters among 1..3: the later two
    assert kept(out[0]) == [2, 3, 4, 5]
    assert kept(pol.h2o(prev, acc, 3)[0]) == [3, 4, 5]  # budget 3: recent 1 (5), heavy 2


def test_tova_keeps_the_newest_querys_top_keys_averaged_over_heads():
    prev = np.ones(5, bool)
    newest = np.array([[0.1, 0.5, 0.1, 0.2, 0.1],
                       [0.5, 0.1, 0.1, 0.2, 0.1]])  # means: .3 .3 .1 .2 .1
    assert kept(pol.tova(prev, newest, 3)) == [0, 1, 5]  # two kept keys + the new query at 5
    assert kept(pol.tova(prev, newest, 2)) == [1, 5]  # 0 and 1 tie: the later stays


def test_tova_chooses_among_the_kept_keys_only():
    prev = np.array([False, True, True, True])
    newest = np.array([[0.9, 0.05, 0.03, 0.02]])
    assert kept(pol.tova(prev, newest, 3)) == [1, 2, 4]


def test_snapkv_pools_the_window_votes_and_keeps_the_window():
    # 10 prompt keys, window 2, budget 4: keep 8, 9 and the best two of 0..7 after averaging over 5 keys
    votes = np.zeros((1, 2, 10))
    votes[0, 0, 1] = 1.0   # one query votes for key 1
    votes[0, 1, 6] = 2.0   # the other for key 6
    out = pol.snapkv(votes, 4, window=2, kernel=5)
    # pooled (zero padding counted): key 6's neighbours 4..7 get 2/5 (8 lies in the window), key 1's 0..3 get 1/5;
    # the two best are the later of the ties at 2/5: 7 and 6
    assert kept(out[0]) == [6, 7, 8, 9]


def test_average_pooling_matches_its_definition():
    x = np.array([[1.0, 2.0, 3.0, 4.0]])
    assert np.allclose(pol.avg_pool(x, 3), [[(0 + 1 + 2) / 3, 2.0, 3.0, (3 + 4 + 0) / 3]])


def test_keys_seen_says_snapkv_alone_exceeds_the_budget_by_its_written_words():
    from attention.lm.evict_policies import keys_seen

    assert keys_seen("snapkv", 64, 152 + 4, 152) == 64 + 5  # word 6: the prompt's 64 and 5 written keys
    for policy in ("streaming", "window", "h2o", "tova"):
        assert keys_seen(policy, 64, 152 + 4, 152) == 64
    assert keys_seen("snapkv", 64, 151, 152) == 152  # the prompt's last query read everything

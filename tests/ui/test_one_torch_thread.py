"""A word is written (ui/pages/writing.py) and Learning's snapshots traced (ui/hosting/cache.py) on one torch thread
(attention/blas.py), and the thread's count is given back after."""

import pytest
import torch

from attention.blas import one_torch_thread


def test_one_thread_inside_and_the_count_given_back_even_after_an_error():
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        with one_torch_thread():
            assert torch.get_num_threads() == 1
        assert torch.get_num_threads() == 2
        with pytest.raises(ValueError), one_torch_thread():
            raise ValueError("a step that failed")
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
